import { describeCorsContract } from '@vp-authorizer/testing/contracts';
import { honoCorsTarget } from './hono-cors-target.js';

describeCorsContract('Hono 4', honoCorsTarget());
