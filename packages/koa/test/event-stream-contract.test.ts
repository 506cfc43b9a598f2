import { describeEventStreamContract } from '@vp-authorizer/testing/contracts';
import { koaTarget } from './koa-target.js';

describeEventStreamContract('Koa 3', koaTarget());
