import { createPrivateKey, randomUUID, sign, type KeyObject } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { p256 } from '@noble/curves/p256';

/** How the fake answers `Sign`: a DER signature, or one of KMS's failures, or nothing at all. */
export type FakeAwsKmsMode = 'sign' | 'throttle' | 'internal-error' | 'disabled' | 'hang';

/**
 * A local stand-in for the AWS KMS `Sign` API on 127.0.0.1: AWS JSON 1.1 over HTTP
 * (`POST /`, `X-Amz-Target: TrentService.Sign`), as `@aws-sdk/client-kms` speaks it when
 * pointed at `endpoint`. It signs ECDSA_SHA_256 with one P-256 key (RAW: the message, at most
 * 4096 bytes; DIGEST: a 32-byte digest as given) and answers DER, as KMS does. It checks that
 * each request carries a SigV4 Authorization header, not the signature itself.
 */
export interface FakeAwsKms {
  /** `http://127.0.0.1:<port>`, the client's `endpoint`. */
  readonly endpoint: string;
  /** The key id it signs for (`Sign` with another KeyId answers NotFoundException). */
  readonly keyId: string;
  /** Switch how the next calls are answered. */
  mode: FakeAwsKmsMode;
  /** Sign with another P-256 private key (a JWK with `d`, or PEM) from now on. */
  useKey(privateKey: JsonWebKey | string): void;
  /** `Sign` calls received. */
  readonly calls: number;
  /** The body of the last `Sign` call. */
  readonly lastRequest: { KeyId?: string; MessageType?: string; SigningAlgorithm?: string; Message?: string } | undefined;
  /** Calls left unanswered (`hang`) whose connection the client closed. */
  readonly abandoned: number;
  close(): Promise<void>;
}

const JSON_11 = 'application/x-amz-json-1.1';

export async function startFakeAwsKms(options: { privateKey: JsonWebKey | string; keyId?: string }): Promise<FakeAwsKms> {
  const keyId = options.keyId ?? `arn:aws:kms:eu-central-1:111122223333:key/${randomUUID()}`;
  let key = toKey(options.privateKey);
  let mode: FakeAwsKmsMode = 'sign';
  let calls = 0;
  let abandoned = 0;
  let lastRequest: FakeAwsKms['lastRequest'];
  const hanging = new Set<ServerResponse>();

  const fail = (res: ServerResponse, status: number, type: string, message: string) => {
    res.writeHead(status, { 'content-type': JSON_11, 'x-amzn-requestid': randomUUID() });
    res.end(JSON.stringify({ __type: type, message }));
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    if (req.method !== 'POST' || req.url !== '/') return fail(res, 404, 'UnknownOperationException', 'POST / only');
    if (!String(req.headers.authorization ?? '').startsWith('AWS4-HMAC-SHA256 Credential=')) return fail(res, 400, 'MissingAuthenticationTokenException', 'no SigV4 Authorization header');
    if (req.headers['x-amz-target'] !== 'TrentService.Sign') return fail(res, 400, 'UnknownOperationException', `only TrentService.Sign, not ${String(req.headers['x-amz-target'])}`);
    calls++;
    let body: NonNullable<FakeAwsKms['lastRequest']>;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as typeof body;
    } catch {
      return fail(res, 400, 'SerializationException', 'body is not JSON');
    }
    lastRequest = body;
    switch (mode) {
      case 'hang':
        hanging.add(res);
        res.once('close', () => {
          if (hanging.delete(res)) abandoned++;
        });
        return;
      case 'throttle':
        return fail(res, 400, 'ThrottlingException', 'Rate exceeded');
      case 'internal-error':
        return fail(res, 500, 'KMSInternalException', 'internal error');
      case 'disabled':
        return fail(res, 400, 'DisabledException', `${keyId} is disabled.`);
      case 'sign':
        break;
    }
    if (body.KeyId !== keyId) return fail(res, 400, 'NotFoundException', `Key '${String(body.KeyId)}' does not exist`);
    if (body.SigningAlgorithm !== 'ECDSA_SHA_256') return fail(res, 400, 'InvalidKeyUsageException', 'the key signs ECDSA_SHA_256 only');
    const message = Buffer.from(body.Message ?? '', 'base64');
    let der: Uint8Array;
    if (body.MessageType === 'DIGEST') {
      if (message.length !== 32) return fail(res, 400, 'ValidationException', 'a digest for ECDSA_SHA_256 is 32 bytes');
      // ECDSA over the digest as given (no second hash): node:crypto always hashes, noble signs a digest.
      const d = Buffer.from(key.export({ format: 'jwk' }).d!, 'base64url');
      der = p256.sign(message, d).toDERRawBytes();
    } else {
      if (message.length === 0 || message.length > 4096) return fail(res, 400, 'ValidationException', 'a RAW message is 1 to 4096 bytes');
      der = sign('sha256', message, { key, dsaEncoding: 'der' });
    }
    res.writeHead(200, { 'content-type': JSON_11, 'x-amzn-requestid': randomUUID() });
    res.end(JSON.stringify({ KeyId: keyId, Signature: Buffer.from(der).toString('base64'), SigningAlgorithm: 'ECDSA_SHA_256' }));
  };

  const server = createServer((req, res) => void handle(req, res).catch(() => res.destroy()));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    keyId,
    get mode() {
      return mode;
    },
    set mode(next) {
      mode = next;
    },
    useKey(privateKey) {
      key = toKey(privateKey);
    },
    get calls() {
      return calls;
    },
    get lastRequest() {
      return lastRequest;
    },
    get abandoned() {
      return abandoned;
    },
    async close() {
      const left = [...hanging];
      hanging.clear();
      for (const res of left) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function toKey(privateKey: JsonWebKey | string): KeyObject {
  const key = typeof privateKey === 'string' ? createPrivateKey(privateKey) : createPrivateKey({ key: privateKey as import('node:crypto').JsonWebKey, format: 'jwk' });
  if (key.asymmetricKeyDetails?.namedCurve !== 'prime256v1') throw new TypeError('startFakeAwsKms: the key must be an EC P-256 private key');
  return key;
}
