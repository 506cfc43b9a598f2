import { describeHttpContract, fetchHandlerTarget } from '@vp-authorizer/testing';

describeHttpContract('fetch handler (authorizer.fetch on node:http)', fetchHandlerTarget());
