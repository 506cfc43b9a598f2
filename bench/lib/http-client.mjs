// The bench wallet's HTTP: node:http with keep-alive connections, much lighter per request than
// fetch (undici), so the client stays cheaper per flow than any server it drives and can keep it busy.
import { Agent, request } from 'node:http';

const agent = new Agent({ keepAlive: true, keepAliveMsecs: 60_000 });
const TIMEOUT_MS = 30_000;

/**
 * One request; resolves to `{ status, type, text }`. `json` or `form` (an object) becomes the
 * body with its content type; `bearer` an Authorization header.
 */
export function httpCall(url, { method = 'GET', json, form, bearer, accept } = {}) {
  const headers = {};
  let body;
  if (json !== undefined) [headers['content-type'], body] = ['application/json', JSON.stringify(json)];
  if (form !== undefined) [headers['content-type'], body] = ['application/x-www-form-urlencoded', new URLSearchParams(form).toString()];
  if (body !== undefined) headers['content-length'] = Buffer.byteLength(body);
  if (bearer) headers.authorization = `Bearer ${bearer}`;
  if (accept) headers.accept = accept;
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers, agent }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode, type: res.headers['content-type'] ?? '', text }));
      res.on('error', reject);
    });
    req.on('error', reject);
    // A server that stops answering fails the measurement instead of hanging it.
    req.setTimeout(TIMEOUT_MS, () => req.destroy(new Error(`${method} ${url}: no answer in ${TIMEOUT_MS / 1000} s`)));
    req.end(body);
  });
}
