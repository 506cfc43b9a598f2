import { describeHttpContract } from '@vp-authorizer/testing/contracts';
import { honoTarget } from './hono-target.js';

describeHttpContract('Hono 4', honoTarget());
// A host that reads forms with c.req.formData(): the cached FormData must not reach the core as multipart.
describeHttpContract('Hono 4 (host reads forms with c.req.formData())', honoTarget({ forms: 'formData' }));
