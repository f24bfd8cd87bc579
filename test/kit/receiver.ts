// A webhook receiver on loopback for tests: records every request (raw body, headers) and answers as told.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  /** Parsed JSON body. */
  json: { data: { id: string; type: string; attributes: { event: string } }; included?: unknown[]; meta?: Record<string, unknown> };
}

export interface Receiver {
  url: string;
  received: Received[];
  /** Decides each answer (status code, optional delay and headers); default 200 at once. */
  respond: (r: Received, index: number) => { status: number; delayMs?: number; headers?: Record<string, string> };
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const receiver: Receiver = {
    url: '',
    received: [],
    respond: () => ({ status: 200 }),
    close: async () => {},
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let json: Received['json'];
      try {
        json = JSON.parse(body);
      } catch {
        json = { data: { id: '', type: '', attributes: { event: '' } } };
      }
      const r: Received = { headers: req.headers, body, json };
      const index = receiver.received.push(r) - 1;
      const answer = receiver.respond(r, index);
      const send = () => {
        res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
        res.end('{"ok":true}');
      };
      if (answer.delayMs) setTimeout(send, answer.delayMs);
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  receiver.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return receiver;
}
