import { describeCorsContract } from '@vp-authorizer/testing/contracts';
import { honoCorsTarget } from '../../packages/hono/test/hono-cors-target.js';

describeCorsContract('Hono 4', honoCorsTarget());
