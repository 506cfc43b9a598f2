import { describeEventStreamContract } from '@vp-authorizer/testing/contracts';
import { express5Target } from './express-target.js';

describeEventStreamContract('Express 5', express5Target());
