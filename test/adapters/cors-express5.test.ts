import { describeCorsContract } from '@vp-authorizer/testing/contracts';
import { express5CorsTarget } from '../../packages/express/test/express-cors-target.js';

describeCorsContract('Express 5', express5CorsTarget());
