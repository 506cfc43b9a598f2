import { AuthorizerError } from '../errors/authorizer-error.js';

/** The parts of a node:http IncomingMessage these checks read (Express and Koa both expose it). */
export interface NodeRequestLike {
  headers: Record<string, string | string[] | undefined>;
  destroyed: boolean;
  complete: boolean;
}

/** 413 at once when the declared Content-Length is over the limit: nothing is read first. */
export function refuseDeclaredOverLimit(req: NodeRequestLike, limit: number): void {
  if (Number(req.headers['content-length'] ?? 0) > limit) throw new AuthorizerError('request.body_too_large');
}

/**
 * 413 when a body a host parser already consumed (with its own, possibly higher limit) is over
 * ours. A chunked upload has no Content-Length, so measure the parsed value: forms as the sum of
 * key and value lengths, anything else as its JSON text. A value JSON cannot measure is refused.
 */
export function refuseParsedOverLimit(value: unknown, contentType: string | null | undefined, limit: number): void {
  if (parsedSize(value, (contentType ?? '').split(';', 1)[0]!.trim().toLowerCase()) > limit) {
    throw new AuthorizerError('request.body_too_large');
  }
}

function parsedSize(value: unknown, mediaType: string): number {
  if (mediaType !== 'application/x-www-form-urlencoded' || value === null || typeof value !== 'object') return jsonSize(value);
  let size = 0;
  for (const [key, field] of Object.entries(value)) {
    for (const item of Array.isArray(field) ? (field as unknown[]) : [field]) {
      size += Buffer.byteLength(key) + (typeof item === 'string' ? Buffer.byteLength(item) : jsonSize(item));
    }
  }
  return size;
}

function jsonSize(value: unknown): number {
  try {
    const text = JSON.stringify(value) as string | undefined;
    return text === undefined ? 0 : Buffer.byteLength(text);
  } catch {
    return Number.POSITIVE_INFINITY; // cyclic or BigInt: not a body a parser produced from JSON or a form
  }
}

const ABORT_CODES = new Set(['ECONNRESET', 'ERR_STREAM_PREMATURE_CLOSE', 'ECONNABORTED']);

/** The client went away mid-request (aborted upload, reset socket): not a server fault to report. */
export function clientWentAway(req: NodeRequestLike, error: unknown): boolean {
  if (req.destroyed && !req.complete) return true;
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return (typeof code === 'string' && ABORT_CODES.has(code)) || message === 'aborted';
}
