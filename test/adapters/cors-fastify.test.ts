import { describeCorsContract } from '@vp-authorizer/testing/contracts';
import { fastifyCorsTarget } from '../../packages/fastify/test/fastify-cors-target.js';

describeCorsContract('Fastify 5', fastifyCorsTarget());
