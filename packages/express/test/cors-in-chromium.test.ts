import { describeCorsBrowserContract } from '@vp-authorizer/testing/contracts';
import { express4CorsTarget, express5CorsTarget } from './express-cors-target.js';

describeCorsBrowserContract('Express 5', express5CorsTarget());
describeCorsBrowserContract('Express 4', express4CorsTarget());
