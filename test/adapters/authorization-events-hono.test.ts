import { honoTarget } from '../../packages/hono/test/hono-target.js';
import { describeAuthorizationEvents } from './authorization-events-harness.js';

describeAuthorizationEvents('Hono 4 on @hono/node-server', honoTarget());
