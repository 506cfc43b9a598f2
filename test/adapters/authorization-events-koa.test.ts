import { koaTarget } from '../../packages/koa/test/koa-target.js';
import { describeAuthorizationEvents } from './authorization-events-harness.js';

describeAuthorizationEvents('Koa 3', koaTarget());
