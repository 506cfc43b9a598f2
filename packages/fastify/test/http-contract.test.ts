import { describeHttpContract } from '@vp-authorizer/testing/contracts';
import { fastifyTarget } from './fastify-target.js';

describeHttpContract('Fastify 5', fastifyTarget());
