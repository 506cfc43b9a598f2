import { describeCorsBrowserContract } from '@vp-authorizer/testing/contracts';
import { fastifyCorsTarget } from '../../packages/fastify/test/fastify-cors-target.js';

describeCorsBrowserContract('Fastify 5', fastifyCorsTarget());
