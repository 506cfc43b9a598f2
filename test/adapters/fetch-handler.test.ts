import { describeHttpContract, fetchHandlerTarget } from '@vp-authorizer/testing/contracts';

describeHttpContract('fetch handler (authorizer.fetch on node:http)', fetchHandlerTarget());
