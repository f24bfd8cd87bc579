// The baseline server: bare node:http answering each path with the exact bytes Tidemark answered it with.
// Run: node --import tsx bench/lib/bare-server.ts <responses.json>; prints `listening <port>`.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const responses = new Map<string, { body: Buffer; type: string }>(
  Object.entries(JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as Record<string, { body: string; type: string }>).map(([path, r]) => [
    path,
    { body: Buffer.from(r.body), type: r.type },
  ]),
);

const server = createServer((req, res) => {
  const r = responses.get(req.url ?? '');
  if (!r) {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(200, { 'content-type': r.type, 'content-length': r.body.length }).end(r.body);
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  console.log(`listening ${typeof address === 'object' && address ? address.port : 0}`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
