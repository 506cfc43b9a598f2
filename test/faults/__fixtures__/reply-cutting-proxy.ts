/**
 * A loopback TCP proxy in front of Redis that can lose one reply: once armed with a command name,
 * the next request carrying that command is forwarded to Redis (so it runs), but the connection is
 * cut before any further byte reaches the client. This is what a crash or a network cut right
 * after Redis executed a command looks like to the store: the outcome of the write is unknown.
 */
import { connect, createServer, type Server, type Socket } from 'node:net';

export interface ReplyCuttingProxy {
  readonly port: number;
  readonly url: string;
  /**
   * Cut the connection right after the next request that contains `command` (case-insensitive,
   * e.g. 'getdel'); with `skip`, let that many such requests through first.
   */
  armFor(command: string, skip?: number): void;
  /**
   * Hold every reply on that connection for `ms` after the next request containing `command`
   * (a stalled Redis or network): the command runs at once, its reply arrives late.
   */
  stallAfter(command: string, ms: number): void;
  /** How many replies were cut or stalled so far. */
  readonly cuts: number;
  close(): Promise<void>;
}

export async function startReplyCuttingProxy(targetPort: number): Promise<ReplyCuttingProxy> {
  const sockets = new Set<Socket>();
  let armed: RegExp | undefined;
  let skipping = 0;
  let stallMs = 0;
  const timers = new Set<ReturnType<typeof setTimeout>>();
  let cuts = 0;
  const server: Server = createServer((client) => {
    const upstream = connect({ host: '127.0.0.1', port: targetPort });
    let cutting = false;
    let held: Buffer[] | undefined;
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => socket.destroy());
    }
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    client.on('data', (chunk: Buffer) => {
      if (cutting) return;
      upstream.write(chunk);
      if (armed && armed.test(chunk.toString('latin1')) && skipping-- <= 0) {
        armed = undefined;
        cuts++;
        if (stallMs > 0) {
          held = [];
          const timer = setTimeout(() => {
            timers.delete(timer);
            const pending = held ?? [];
            held = undefined;
            for (const c of pending) if (!client.destroyed) client.write(c);
          }, stallMs);
          timers.add(timer);
          stallMs = 0;
          return;
        }
        cutting = true;
        // Give Redis time to execute (and fsync) the command, then drop the connection unanswered.
        const timer = setTimeout(() => {
          timers.delete(timer);
          client.destroy();
          upstream.destroy();
        }, 100);
        timers.add(timer);
      }
    });
    upstream.on('data', (chunk: Buffer) => {
      if (held) held.push(chunk);
      else if (!cutting) client.write(chunk);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    stallAfter(command, ms) {
      skipping = 0;
      stallMs = ms;
      armed = new RegExp(`\\r\\n${command}\\r\\n`, 'i');
    },
    armFor(command, skip = 0) {
      skipping = skip;
      stallMs = 0;
      armed = new RegExp(`\\r\\n${command}\\r\\n`, 'i');
    },
    get cuts() {
      return cuts;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
