import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { createCertificateSigningRequest, type CsrKey } from '../certificate-signing-request.js';
import type { CommandOutput } from './keys-command.js';

export const CSR_USAGE = `Usage: vp-authorizer keys csr --key <file.pem | pkcs11:…> --dns <name> --org <name> --org-id <id> [--country <CC>] [--cn <name>] [--out <file>]

Writes a PKCS#10 certificate signing request (PEM) for a P-256 request-signing key, for the
access-certificate authority of a wallet ecosystem: subject CN, O, organizationIdentifier and C,
subjectAltName dNSName, keyUsage digitalSignature; signed by the key itself.

  --key <file.pem>   the P-256 private key (PKCS#8 or SEC1 PEM)
  --key <pkcs11:…>   a key on a PKCS#11 token (RFC 7512 URI), needs @vp-authorizer/pkcs11:
                     pkcs11:token=<label>;object=<key label>?module-path=<library>&pin-source=file:<path>
  --dns <name>       dNSName of the subjectAltName (the x509_san_dns client id)
  --org <name>       organisation name (O)
  --org-id <id>      organisation identifier (2.5.4.97), e.g. LEIXG-529900T8BM49AURSDO55 — the
                     identifier the registrar registered, and the registration certificate's sub.id
  --country <CC>     country (C), two letters
  --cn <name>        common name (default: the --dns name)
  --out <file>       write there instead of standard output

Then: send the request to the access-certificate authority; configure the certificate it returns
(and its intermediates, leaf first, never the root) as signing.certificateChain, and its root as
signing.trustAnchor. Check it first with: openssl req -verify -noout -text -in <file>
`;

const DNS_NAME = /^(?=.{1,253}$)(?!-)[a-z0-9-]{1,63}(?<!-)(\.(?!-)[a-z0-9-]{1,63}(?<!-))*$/i;

class UsageError extends Error {}

/** What this command uses of @vp-authorizer/pkcs11, loaded only for a pkcs11: key (this package does not depend on it). */
interface Pkcs11Package {
  openPkcs11Signer(options: { module: string; token: { label: string }; pin: string; key: { label: string }; sessions: number }): Promise<{
    publicKey: import('node:crypto').KeyObject;
    sign(data: Uint8Array): Promise<Uint8Array>;
    close(): Promise<void>;
  }>;
}

/** An RFC 7512 PKCS#11 URI, the attributes this command reads. */
export function parsePkcs11Uri(uri: string): { token: string; object: string; modulePath: string; pinSource?: string; pinValue?: string } {
  const match = /^pkcs11:([^?]*)(?:\?(.*))?$/.exec(uri);
  if (!match) throw new UsageError('a PKCS#11 URI starts with pkcs11:');
  const attrs = (part: string | undefined, sep: string) =>
    new Map((part ?? '').split(sep).filter(Boolean).map((kv) => {
      const eq = kv.indexOf('=');
      return [kv.slice(0, eq), decodeURIComponent(kv.slice(eq + 1))] as [string, string];
    }));
  const path = attrs(match[1], ';');
  const query = attrs(match[2], '&');
  const token = path.get('token');
  const object = path.get('object');
  const modulePath = query.get('module-path');
  if (!token || !object || !modulePath) throw new UsageError('the PKCS#11 URI needs token=<label> and object=<key label>, and module-path=<library> in its query');
  return { token, object, modulePath, ...(query.has('pin-source') ? { pinSource: query.get('pin-source')! } : {}), ...(query.has('pin-value') ? { pinValue: query.get('pin-value')! } : {}) };
}

/** `keys csr`: returns the process exit code. */
export async function csrCommand(argv: string[], io: CommandOutput, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  let values: Record<string, string | boolean | undefined>;
  try {
    values = parseArgs({
      args: argv,
      options: { key: { type: 'string' }, dns: { type: 'string' }, org: { type: 'string' }, 'org-id': { type: 'string' }, country: { type: 'string' }, cn: { type: 'string' }, out: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
      strict: true,
    }).values;
    if (values.help) {
      io.out(CSR_USAGE);
      return 0;
    }
    for (const flag of ['key', 'dns', 'org', 'org-id'] as const) if (!values[flag]) throw new UsageError(`--${flag} is required`);
    if (!DNS_NAME.test(values.dns as string)) throw new UsageError('--dns must be a DNS name such as rp.example.com');
    if (values.country !== undefined && !/^[A-Z]{2}$/.test(values.country as string)) throw new UsageError('--country must be two capital letters (ISO 3166-1 alpha-2)');
  } catch (error) {
    io.err(`${error instanceof Error ? error.message : String(error)}\n\n${CSR_USAGE}`);
    return 2;
  }
  const keyArg = values.key as string;
  let close: (() => Promise<void>) | undefined;
  let key: CsrKey;
  try {
    if (keyArg.startsWith('pkcs11:')) {
      const uri = parsePkcs11Uri(keyArg);
      // The PIN from a file (pin-source) or AUTHZ_PKCS11_PIN; a pin-value in the URI would end up in shell history.
      const pin = uri.pinSource ? readFileSync(uri.pinSource.replace(/^file:/, ''), 'utf8').trim() : (uri.pinValue ?? env.AUTHZ_PKCS11_PIN);
      if (!pin) throw new UsageError('the PKCS#11 key needs a PIN: pin-source=file:<path> in the URI, or AUTHZ_PKCS11_PIN');
      const specifier = '@vp-authorizer/pkcs11';
      const pkcs11 = (await import(specifier).catch(() => {
        throw new UsageError('a pkcs11: key needs @vp-authorizer/pkcs11 installed next to @vp-authorizer/keys');
      })) as Pkcs11Package;
      const signer = await pkcs11.openPkcs11Signer({ module: uri.modulePath, token: { label: uri.token }, pin, key: { label: uri.object }, sessions: 1 });
      close = () => signer.close();
      key = { publicKey: signer.publicKey, sign: (data) => signer.sign(data) };
    } else {
      key = { privateKeyPem: readFileSync(keyArg, 'utf8') };
    }
    const pem = await createCertificateSigningRequest({
      key,
      dnsName: values.dns as string,
      organization: values.org as string,
      organizationId: values['org-id'] as string,
      ...(values.country ? { country: values.country as string } : {}),
      ...(values.cn ? { commonName: values.cn as string } : {}),
    });
    if (values.out) {
      writeFileSync(values.out as string, pem, { mode: 0o644 });
      io.err(`Wrote the certificate signing request to ${values.out as string}`);
    } else io.out(pem.trimEnd());
    return 0;
  } catch (error) {
    // Messages name the file, the token or the PKCS#11 code; never the PIN or the key.
    io.err(`keys csr: ${error instanceof Error ? error.message : String(error)}`);
    return error instanceof UsageError ? 2 : 1;
  } finally {
    await close?.();
  }
}
