// A loopback reverse proxy that adds `Authorization` to every request it forwards. The MCP conformance CLI
// (`conformance server --url …`) has no option to send a header, and /mcp answers 401 without an API key: the
// CLI talks to this proxy, which passes each request on unchanged (method, path, body, Host and Origin, so the
// DNS-rebinding checks still reach the server) with the key added, and streams the answer back (SSE too).
import { createServer, type IncomingHttpHeaders, request } from 'node:http';
import type { AddressInfo } from 'node:net';

const HOP_BY_HOP = ['connection', 'keep-alive', 'transfer-encoding', 'proxy-connection', 'upgrade'];

function withoutHopByHop(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const out = { ...headers };
  for (const h of HOP_BY_HOP) delete out[h];
  return out;
}

export interface AuthProxy {
  /** The target URL's path on the proxy, e.g. http://127.0.0.1:41234/mcp. */
  url: string;
  close(): Promise<void>;
}

/** Forwards http://127.0.0.1:<port>/… to `target`'s origin, adding `Authorization: <authorization>`. */
export function startAuthProxy(target: string, authorization: string, port = 0): Promise<AuthProxy> {
  const upstream = new URL(target);
  const server = createServer((req, res) => {
    const forwarded = request(
      {
        hostname: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url,
        headers: { ...withoutHopByHop(req.headers), authorization },
        agent: false,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, withoutHopByHop(answer.headers));
        answer.pipe(res);
      },
    );
    forwarded.on('error', (err) => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`proxy: ${err.message}`);
    });
    // A client that hangs up (an SSE stream it is done with) ends the upstream request too.
    res.on('close', () => forwarded.destroy());
    req.pipe(forwarded);
  });
  return new Promise((ready, fail) => {
    server.once('error', fail);
    server.listen(port, '127.0.0.1', () => {
      const { port: bound } = server.address() as AddressInfo;
      ready({
        url: `http://127.0.0.1:${bound}${upstream.pathname}`,
        close: () =>
          new Promise((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}
