import { describeCorsContract } from '@vp-authorizer/testing/contracts';
import { koaCorsTarget } from './koa-cors-target.js';

describeCorsContract('Koa 3', koaCorsTarget());
