import { describeHttpContract } from '@vp-authorizer/testing/contracts';
import { express4Target } from './express-target.js';

describeHttpContract('Express 4', express4Target());
