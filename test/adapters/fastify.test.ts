import { describeHttpContract } from '@vp-authorizer/testing';
import { fastifyTarget } from '../../packages/fastify/test/fastify-target.js';

describeHttpContract('Fastify 5', fastifyTarget());
