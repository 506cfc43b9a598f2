// CPU per hostile request (corpus entries matching ONLY), interleaved, in process.
import { HOSTILE } from '../hostile-corpus.mjs';
import { inProcessAuthorizer } from '../lib/in-process-authorizer.mjs';
import { loadBuild } from '../lib/ab-builds.mjs';
const BASE = 'https://verifier.example', KEY = 'bench-stalls-api-key-0001';
const { createTestIssuer } = await import('@vp-authorizer/testing');
const issuer = await createTestIssuer();
const build = process.env.BUILD ? await loadBuild(process.env.BUILD) : undefined;
const { authorizer } = await inProcessAuthorizer({ base: BASE, apiKey: KEY, instanceId: 's', issuer, build });
const req = ({ method, path, type, body, headers = {}, rp }) => new Request(`${BASE}${path}`, { method, headers: { ...(type ? { 'content-type': type } : {}), ...(rp ? { authorization: `Bearer ${KEY}` } : {}), ...headers }, body });
const create = async (body) => {
  const created = await (await authorizer.fetch(req({ method: 'POST', path: '/openid4/vp/v1_0/authorizations', type: 'application/json', body: JSON.stringify(body), rp: true }))).json();
  if (created.digitalCredentialGetRequest?.protocol === 'org-iso-mdoc') return { id: created.authorizationId, encryptionInfo: created.digitalCredentialGetRequest.data.encryptionInfo };
  const jwt = await (await authorizer.fetch(new Request(new URL(created.authorizeUrl).searchParams.get('request_uri')))).text();
  return { id: created.authorizationId, state: JSON.parse(Buffer.from(jwt.split('.')[1], 'base64url')).state };
};
const attacks = HOSTILE.filter((a) => a.name.includes(process.env.ONLY));
const times = new Map(attacks.map((a) => [a.name, []]));
for (let r = 0; r < Number(process.env.ROUNDS ?? 8); r++) {
  for (const a of r % 2 ? [...attacks].reverse() : attacks) {
    const request = req(await a.request(await create(a.create)));
    const start = process.cpuUsage();
    const res = await authorizer.fetch(request);
    await res.arrayBuffer();
    const u = process.cpuUsage(start);
    if (r > 0) times.get(a.name).push((u.user + u.system) / 1000);
  }
}
const med = (v) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)];
for (const [n, v] of times) console.log(med(v).toFixed(1).padStart(7), 'ms', n);
await authorizer.close();
process.exit(0);
