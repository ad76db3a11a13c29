/** Plumbing the tests' proxies share (fault-proxy.ts, wire-count-proxy.ts): two sockets that end
 *  together, and a server listening on a free loopback port. */
import type http from 'node:http';
import type net from 'node:net';

/** Either side failing or closing ends the other, so neither is left half open. */
export function endTogether(a: net.Socket, b: net.Socket): void {
  a.on('error', () => b.destroy());
  b.on('error', () => a.destroy());
  a.on('close', () => b.destroy());
  b.on('close', () => a.destroy());
}

/** Listens on a free port of 127.0.0.1 and returns it. */
export async function listenOnFreePort(server: http.Server | net.Server): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return (server.address() as net.AddressInfo).port;
}
