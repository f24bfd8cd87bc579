// A real SMTP server on a loopback port that keeps what it is sent, for tests of the mail Tidemark sends.
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface CaughtMail {
  to: string[];
  /** The raw message with quoted-printable soft breaks and `=3D` undone, so links read whole. */
  body: string;
}

export interface MailCatcher {
  /** `smtp://127.0.0.1:<port>`, for TIDEMARK_SMTP_URL. */
  url: string;
  received: CaughtMail[];
  close(): Promise<void>;
}

export async function mailCatcher(): Promise<MailCatcher> {
  const received: CaughtMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    onData(stream, session, done) {
      let body = '';
      stream.on('data', (c: Buffer) => (body += c.toString('utf8')));
      stream.on('end', () => {
        received.push({ to: session.envelope.rcptTo.map((r) => r.address), body: body.replace(/=\r?\n/g, '').replace(/=3D/g, '=') });
        done();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
