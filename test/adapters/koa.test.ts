import { describeHttpContract } from '@vp-authorizer/testing';
import { koaTarget } from '../../packages/koa/test/koa-target.js';

describeHttpContract('Koa 3', koaTarget());
