import { describeHttpContract } from '@vp-authorizer/testing/contracts';
import { koaTarget } from '../../packages/koa/test/koa-target.js';

describeHttpContract('Koa 3', koaTarget());
