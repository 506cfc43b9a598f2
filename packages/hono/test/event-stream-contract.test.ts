import { describeEventStreamContract } from '@vp-authorizer/testing/contracts';
import { honoTarget } from './hono-target.js';

describeEventStreamContract('Hono 4 on @hono/node-server', honoTarget());
