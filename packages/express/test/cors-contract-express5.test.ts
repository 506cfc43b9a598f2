import { describeCorsContract } from '@vp-authorizer/testing/contracts';
import { express5CorsTarget } from './express-cors-target.js';

describeCorsContract('Express 5', express5CorsTarget());
