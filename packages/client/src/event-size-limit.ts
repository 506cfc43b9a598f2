import { ResponseLimitError } from './authorizer-api-error.js';

const LF = 0x0a;
const CR = 0x0d;

/**
 * The bytes of an event stream, passed through unchanged while the event being received (its
 * lines up to the blank line that ends it) stays within `maxEventBytes` and a chunk arrives at
 * least every `idleTimeoutMs`; otherwise the stream errors with {@link ResponseLimitError}, which
 * cancels the answer's body. It counts bytes before decoding: CR and LF are single bytes in UTF-8,
 * so line ends are found without decoding. `signal` stops the idle timer.
 */
export function eventSizeLimit(options: { maxEventBytes: number; idleTimeoutMs: number | undefined; status: number; signal: AbortSignal }): TransformStream<Uint8Array<ArrayBuffer>, Uint8Array<ArrayBuffer>> {
  const { maxEventBytes, idleTimeoutMs, status, signal } = options;
  let eventBytes = 0;
  let lineBytes = 0;
  let lastWasCr = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const stopTimer = () => clearTimeout(timer);
  signal.addEventListener('abort', stopTimer, { once: true });
  let arm = () => {};
  return new TransformStream<Uint8Array<ArrayBuffer>, Uint8Array<ArrayBuffer>>({
    start(controller) {
      if (idleTimeoutMs === undefined) return;
      arm = () => {
        clearTimeout(timer);
        if (signal.aborted) return;
        timer = setTimeout(
          () => controller.error(new ResponseLimitError(status, 'idleTimeoutMs', idleTimeoutMs, `the event stream sent nothing for idleTimeoutMs (${idleTimeoutMs} ms); it was closed`)),
          idleTimeoutMs,
        );
      };
      arm();
    },
    transform(chunk, controller) {
      arm();
      count(chunk, controller);
    },
    flush() {
      stopTimer();
    },
  });

  function count(chunk: Uint8Array<ArrayBuffer>, controller: TransformStreamDefaultController<Uint8Array<ArrayBuffer>>): void {
    for (const byte of chunk) {
      if (byte === LF || byte === CR) {
        // CRLF is one line end; an empty line ends the event.
        if (!(byte === LF && lastWasCr)) {
          if (lineBytes === 0) eventBytes = 0;
          lineBytes = 0;
        }
        lastWasCr = byte === CR;
        continue;
      }
      lastWasCr = false;
      lineBytes++;
      if (++eventBytes > maxEventBytes) {
        stopTimer();
        const error = new ResponseLimitError(status, 'maxEventBytes', maxEventBytes, `the event stream sent an event over maxEventBytes (${maxEventBytes} bytes); it was closed`);
        controller.error(error);
        throw error;
      }
    }
    controller.enqueue(chunk);
  }
}
