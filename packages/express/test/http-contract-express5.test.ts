import { describeHttpContract } from '@vp-authorizer/testing/contracts';
import { express5Target } from './express-target.js';

describeHttpContract('Express 5', express5Target());
