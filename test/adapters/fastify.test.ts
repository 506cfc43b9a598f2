import { describeHttpContract } from '@vp-authorizer/testing/contracts';
import { fastifyTarget } from '../../packages/fastify/test/fastify-target.js';

describeHttpContract('Fastify 5', fastifyTarget());
