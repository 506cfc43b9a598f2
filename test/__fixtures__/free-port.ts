import { createServer } from 'node:net';

/** A port free on 127.0.0.1 right now (for a child process that must know its port before it starts). */
export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.once('error', reject);
  });
