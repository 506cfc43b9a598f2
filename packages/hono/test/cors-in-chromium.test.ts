import { describeCorsBrowserContract } from '@vp-authorizer/testing/contracts';
import { honoCorsTarget } from './hono-cors-target.js';

describeCorsBrowserContract('Hono 4', honoCorsTarget());
