import { describeCorsContract } from '@vp-authorizer/testing/contracts';
import { fastifyCorsTarget } from './fastify-cors-target.js';

describeCorsContract('Fastify 5', fastifyCorsTarget());
