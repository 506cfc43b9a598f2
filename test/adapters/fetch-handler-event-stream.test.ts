import { describeEventStreamContract, fetchHandlerTarget } from '@vp-authorizer/testing/contracts';

describeEventStreamContract('fetch handler (authorizer.fetch on node:http)', fetchHandlerTarget());
