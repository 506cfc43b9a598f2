import { fastifyTarget } from '../../packages/fastify/test/fastify-target.js';
import { describeAuthorizationEvents } from './authorization-events-harness.js';

describeAuthorizationEvents('Fastify 5', fastifyTarget());
