import { describeCorsBrowserContract } from '@vp-authorizer/testing';
import { honoCorsTarget } from '../../packages/hono/test/hono-cors-target.js';

describeCorsBrowserContract('Hono 4', honoCorsTarget());
