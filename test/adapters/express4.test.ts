import { describeHttpContract } from '@vp-authorizer/testing/contracts';
import { express4Target } from '../../packages/express/test/express-target.js';

describeHttpContract('Express 4', express4Target());
