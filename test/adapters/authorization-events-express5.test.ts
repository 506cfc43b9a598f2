import { express5Target } from '../../packages/express/test/express-target.js';
import { describeAuthorizationEvents } from './authorization-events-harness.js';

describeAuthorizationEvents('Express 5', express5Target());
