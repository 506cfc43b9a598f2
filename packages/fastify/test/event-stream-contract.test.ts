import { describeEventStreamContract } from '@vp-authorizer/testing/contracts';
import { fastifyTarget } from './fastify-target.js';

describeEventStreamContract('Fastify 5', fastifyTarget());
