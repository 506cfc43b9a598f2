import { describeCorsBrowserContract } from '@vp-authorizer/testing/contracts';
import { honoCorsTarget } from '../../packages/hono/test/hono-cors-target.js';

describeCorsBrowserContract('Hono 4', honoCorsTarget());
