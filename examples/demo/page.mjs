// The demo's browser page: plain HTML and fetch, no build step.
export function demoPage() {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>vp-authorizer demo</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
  body { font: 15px/1.5 system-ui, sans-serif; max-width: 46rem; margin: 2rem auto; padding: 0 1rem; color: #1d2330; }
  button { font: inherit; padding: .5rem 1rem; margin: .25rem .5rem .25rem 0; border-radius: .4rem; border: 1px solid #3556c6; background: #3d63dd; color: white; cursor: pointer; }
  button:disabled { opacity: .5; cursor: default; }
  code, pre { background: #f1f3f8; border-radius: .3rem; padding: .1rem .3rem; word-break: break-all; white-space: pre-wrap; }
  pre { padding: .75rem; }
  .status { font-weight: 600; }
  .authorized { color: #147a3d; } .rejected, .error, .expired { color: #b42318; }
</style></head>
<body>
<h1>vp-authorizer demo</h1>
<p>A relying party asks for a PID (SD-JWT VC) under the HAIP profile. A real wallet would scan the
<code>authorizeUrl</code>; here the built-in <strong>test wallet</strong> (holding a PID from the
demo issuer) answers it for you.</p>
<ol>
  <li><button id="start">1. Create an authorization</button></li>
  <li><button id="present" disabled>2. Present with the test wallet</button></li>
  <li><button id="callback" disabled>3. Open the redirect (resolve the response code)</button></li>
</ol>
<p>Status: <span id="status" class="status">–</span></p>
<pre id="out">Nothing yet.</pre>
<script>
const $ = (id) => document.getElementById(id);
let current, redirect, timer;
const show = (v) => { $('out').textContent = typeof v === 'string' ? v : JSON.stringify(v, null, 2); };
async function poll() {
  if (!current) return;
  const { status } = await (await fetch('/demo/status/' + current.authorizationId)).json();
  $('status').textContent = status; $('status').className = 'status ' + status;
  if (['authorized','rejected','error','expired'].includes(status)) clearInterval(timer);
}
$('start').onclick = async () => {
  current = await (await fetch('/demo/start', { method: 'POST' })).json();
  show({ authorizeUrl: current.authorizeUrl, expiresAt: current.expiresAt });
  $('present').disabled = false; $('callback').disabled = true;
  clearInterval(timer); timer = setInterval(poll, 1000); poll();
};
$('present').onclick = async () => {
  const result = await (await fetch('/demo/wallet', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ authorizeUrl: current.authorizeUrl }) })).json();
  redirect = result.redirect_uri; show(result); $('callback').disabled = !redirect; $('present').disabled = true; poll();
};
$('callback').onclick = async () => { show(await (await fetch(redirect)).json()); $('callback').disabled = true; };
</script>
</body></html>`;
}
