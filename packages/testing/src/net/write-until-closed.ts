import type { ServerResponse } from 'node:http';

/**
 * Writes `chunk` to `res` as fast as the client takes it (honouring backpressure) until `upTo` bytes
 * are written or the client closes the connection; resolves with the bytes written. For tests of a
 * client's body limits: a bounded count proves the client hung up instead of buffering.
 */
export function writeUntilClosed(res: ServerResponse, upTo: number, chunk: Buffer = Buffer.alloc(64 * 1024, 'a')): Promise<number> {
  return new Promise((resolve) => {
    let written = 0;
    let closed = false;
    res.on('close', () => {
      closed = true;
      resolve(written);
    });
    const pump = () => {
      while (!closed && written < upTo) {
        written += chunk.length;
        if (!res.write(chunk)) return void res.once('drain', pump);
      }
      if (!closed) res.end(() => resolve(written));
    };
    pump();
  });
}
