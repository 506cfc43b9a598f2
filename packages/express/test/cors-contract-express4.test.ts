import { describeCorsContract } from '@vp-authorizer/testing/contracts';
import { express4CorsTarget } from './express-cors-target.js';

describeCorsContract('Express 4', express4CorsTarget());
