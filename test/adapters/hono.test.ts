import { describeHttpContract } from '@vp-authorizer/testing';
import { honoTarget } from '../../packages/hono/test/hono-target.js';

describeHttpContract('Hono 4', honoTarget());
