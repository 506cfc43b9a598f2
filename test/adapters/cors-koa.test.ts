import { describeCorsContract } from '@vp-authorizer/testing';
import { koaCorsTarget } from '../../packages/koa/test/koa-cors-target.js';

describeCorsContract('Koa 3', koaCorsTarget());
