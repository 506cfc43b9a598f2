import { describeCorsBrowserContract } from '@vp-authorizer/testing/contracts';
import { fastifyCorsTarget } from './fastify-cors-target.js';

describeCorsBrowserContract('Fastify 5', fastifyCorsTarget());
