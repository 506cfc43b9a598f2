// What the servers and their clients agree on.
export const API_KEY = 'bench-api-key-0001';
export const PID_VCT = 'urn:eudi:pid:1';
export const PID_QUERY = { type: 'DCQL', dcql: { credentials: [{ id: 'pid', format: 'dc+sd-jwt', meta: { vct_values: [PID_VCT] }, claims: [{ path: ['given_name'] }] }] } };
