// The HTTP listener, bound before anything is composed: the address a process listens at (PORT=0 picks a free port)
// is part of its configuration (links, the OAuth issuer, the sandbox URL), so it is known before the services are made
// from it. The Fastify app takes the bound server through `serverFactory` once it is built (http/app.ts).
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { networkInterfaces } from 'node:os';
import { errorBody } from './errors.js';
import { JSONAPI } from './reply.js';

type RequestHandler = (req: IncomingMessage, res: ServerResponse) => void;

export interface Listener {
  readonly server: Server;
  /** `http://host:port` as bound, in the form Fastify's listen() reports it. */
  readonly address: string;
  /** Hands the requests to `handler` (Fastify's, from its serverFactory) from now on; returns the server. */
  serve(handler: RequestHandler): Server;
  /** Stops accepting connections, ends idle keep-alive ones, and resolves once the last connection has ended. */
  close(): Promise<void>;
}

/** What a request that arrives before the app is ready is told: the process is starting, ask again. */
const starting: RequestHandler = (req, res) => {
  const detail = 'This server is starting; send the request again';
  const body = JSON.stringify(errorBody(503, [{ title: 'Service Unavailable', detail }], randomUUID()));
  req.resume();
  res.writeHead(503, { 'content-type': JSONAPI, 'retry-after': '1', connection: 'close' }).end(body);
};

/** Binds `host:port` with the timeouts Fastify gives the servers it makes itself (keep-alive 72 s, no request timeout). */
export async function listen(host: string, port: number): Promise<Listener> {
  const server = createServer();
  server.keepAliveTimeout = 72_000;
  server.requestTimeout = 0;
  server.setTimeout(0);
  server.on('request', starting);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host, port }, () => {
      server.off('error', reject);
      resolve();
    });
  });
  let closed: Promise<void> | null = null;
  return {
    server,
    address: addressOf(server),
    serve(handler) {
      server.off('request', starting);
      server.on('request', handler);
      return server;
    },
    close() {
      closed ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      });
      return closed;
    },
  };
}

/** As Fastify reports a listen: IPv6 in brackets; the wildcard 0.0.0.0 as the first IPv4 address of the host. */
function addressOf(server: Server): string {
  const bound = server.address();
  if (bound === null || typeof bound === 'string') throw new Error('the HTTP server is not listening on a TCP port');
  if (bound.address.includes(':')) return `http://[${bound.address}]:${bound.port}`;
  const host =
    bound.address === '0.0.0.0'
      ? (Object.values(networkInterfaces())
          .flat()
          .find((i) => i?.family === 'IPv4')?.address ?? bound.address)
      : bound.address;
  return `http://${host}:${bound.port}`;
}
