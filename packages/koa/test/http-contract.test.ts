import { describeHttpContract } from '@vp-authorizer/testing/contracts';
import { koaTarget } from './koa-target.js';

describeHttpContract('Koa 3', koaTarget());
