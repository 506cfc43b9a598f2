import { EventSourceParserStream } from 'eventsource-parser/stream';
import type { AuthorizationStatus } from './api-types.js';
import { ResponseLimitError, UnexpectedResponseError, errorFromAnswer } from './authorizer-api-error.js';
import { eventSizeLimit } from './event-size-limit.js';

const TERMINAL: ReadonlySet<string> = new Set(['authorized', 'rejected', 'error', 'expired']);

/**
 * The `event: status` events of an answer of `GET …/events` as an async iterable. `open` sends the
 * request (openapi-fetch, `parseAs: 'stream'`) with a signal this function owns: it aborts it when
 * the iteration ends for any reason (terminal status, `signal`, a `break`, an error), so no
 * connection outlives its loop. Each iteration opens its own request.
 */
export function readStatusEvents(
  open: (signal: AbortSignal) => Promise<{ data?: unknown; error?: unknown; response: Response }>,
  signal: AbortSignal | undefined,
  limits: { maxEventBytes: number; idleTimeoutMs: number | undefined },
): AsyncIterable<AuthorizationStatus> {
  return {
    async *[Symbol.asyncIterator]() {
      if (signal?.aborted) return;
      const controller = new AbortController();
      const abort = () => controller.abort();
      signal?.addEventListener('abort', abort, { once: true });
      try {
        let answer: Awaited<ReturnType<typeof open>>;
        // idleTimeoutMs covers the wait for the answer's headers too, not only silence in its body.
        let headersLate = false;
        const headersTimer =
          limits.idleTimeoutMs === undefined
            ? undefined
            : setTimeout(() => {
                headersLate = true;
                controller.abort();
              }, limits.idleTimeoutMs);
        try {
          answer = await open(controller.signal);
        } catch (error) {
          if (headersLate) throw new ResponseLimitError(0, 'idleTimeoutMs', limits.idleTimeoutMs!, `the event stream sent no answer within idleTimeoutMs (${limits.idleTimeoutMs} ms); the request was abandoned`);
          if (controller.signal.aborted) return;
          throw error;
        } finally {
          clearTimeout(headersTimer);
        }
        const { data, error, response } = answer;
        if (!response.ok) throw errorFromAnswer(response, error);
        if (!response.headers.get('content-type')?.startsWith('text/event-stream') || typeof (data as ReadableStream | null)?.getReader !== 'function') {
          throw new UnexpectedResponseError(response.status, `${response.url} answered ${response.status} with ${response.headers.get('content-type') ?? 'no content type'} instead of an event stream`);
        }
        // Bounded before decoding and parsing: the parser buffers a pending event whole.
        const events = (data as ReadableStream<Uint8Array<ArrayBuffer>>)
          .pipeThrough(eventSizeLimit({ ...limits, status: response.status, signal: controller.signal }))
          .pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream());
        for await (const event of iterate(events, controller.signal)) {
          if (event.event !== 'status') continue;
          const status = parseStatus(event.data, response);
          yield status;
          if (TERMINAL.has(status.status)) return;
        }
        if (controller.signal.aborted) return;
        throw new UnexpectedResponseError(response.status, 'the event stream ended before a terminal status (a proxy or load balancer may have cut it): open it again, or read the status');
      } finally {
        signal?.removeEventListener('abort', abort);
        controller.abort();
      }
    },
  };
}

/** Reads a stream until it ends; an abort of `signal` ends it quietly instead of as an error. */
async function* iterate<T>(stream: ReadableStream<T>, signal: AbortSignal): AsyncGenerator<T> {
  const reader = stream.getReader();
  try {
    for (;;) {
      let chunk: ReadableStreamReadResult<T>;
      try {
        chunk = await reader.read();
      } catch (error) {
        if (signal.aborted) return;
        throw error;
      }
      if (chunk.done) return;
      yield chunk.value;
    }
  } finally {
    reader.cancel().catch(() => {});
    reader.releaseLock();
  }
}

function parseStatus(data: string, response: Response): AuthorizationStatus {
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    value = undefined;
  }
  if (typeof value !== 'object' || value === null || typeof (value as { status?: unknown }).status !== 'string') {
    throw new UnexpectedResponseError(response.status, `the event stream sent a status event that is not {status}: ${data.slice(0, 200)}`);
  }
  return value as AuthorizationStatus;
}
