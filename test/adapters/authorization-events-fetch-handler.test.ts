import { describeAuthorizationEvents, streamingFetchTarget } from './authorization-events-harness.js';

describeAuthorizationEvents('fetch handler (authorizer.fetch on node:http)', streamingFetchTarget());
