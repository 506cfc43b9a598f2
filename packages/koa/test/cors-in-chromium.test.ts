import { describeCorsBrowserContract } from '@vp-authorizer/testing/contracts';
import { koaCorsTarget } from './koa-cors-target.js';

describeCorsBrowserContract('Koa 3', koaCorsTarget());
