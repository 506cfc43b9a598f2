import { createServer, type RequestListener, type Server } from 'node:http';
import { createServer as createTcpServer, type AddressInfo } from 'node:net';

/** Listen on 127.0.0.1 with a random port; close() also drops idle keep-alive sockets. */
export async function listenOnLoopback(listener: RequestListener | Server): Promise<{ origin: string; server: Server; close(): Promise<void> }> {
  const server = typeof listener === 'function' ? createServer(listener) : listener;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    server,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

/**
 * A port on 127.0.0.1 that was free a moment ago, for a server that must know its port before it
 * listens (a child process, or an app whose public URL is built from PORT).
 */
export async function freeLoopbackPort(): Promise<number> {
  const probe = createTcpServer();
  await new Promise<void>((resolve, reject) => {
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}
