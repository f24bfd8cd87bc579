// The NMEA stream over the network, and nothing else: connect to tcp://host:port (reconnecting with a capped
// backoff) or bind udp://host:port, and cut what arrives into lines.
import dgram from 'node:dgram';
import net, { isIPv6 } from 'node:net';
import type { StreamAddress } from '../../../lib/stream-url.js';

/** pino-compatible. */
export interface StreamLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  debug(obj: object, msg: string): void;
}

export interface NmeaClientOptions {
  address: StreamAddress;
  onLine(line: string): void;
  log: StreamLog;
  /** TCP: the first reconnect waits `initialMs`, each next one twice as long, at most `maxMs`. */
  reconnect: { initialMs: number; maxMs: number };
  /** TCP: a connection that sends nothing for this long is dropped and made again (0 = never). */
  idleTimeoutMs: number;
}

/** An NMEA sentence is at most 82 characters; a tag block adds some. Longer "lines" are noise. */
const MAX_LINE = 1024;

/** Cuts a character stream into lines (LF, CRLF or CR); drops a line that grows past MAX_LINE. */
export class LineFramer {
  #partial = '';
  #overlong = false;

  push(chunk: string, emit: (line: string) => void): void {
    const parts = chunk.split(/\r\n|\r|\n/);
    const last = parts.pop()!;
    for (const part of parts) {
      const line = this.#partial + part;
      if (!this.#overlong && line.length <= MAX_LINE && line.trim()) emit(line);
      this.#partial = '';
      this.#overlong = false;
    }
    this.#partial += last;
    if (this.#partial.length > MAX_LINE) {
      this.#partial = '';
      this.#overlong = true;
    }
  }

  /** A cut connection: what is left is half a line. */
  reset(): void {
    this.#partial = '';
    this.#overlong = false;
  }
}

export class NmeaClient {
  readonly #o: NmeaClientOptions;
  readonly #framer = new LineFramer();
  #tcp: net.Socket | null = null;
  #udp: dgram.Socket | null = null;
  #timer: NodeJS.Timeout | null = null;
  #failures = 0;
  #stopped = false;
  #ready: { promise: Promise<void>; resolve: () => void };
  #localPort: number | null = null;

  constructor(options: NmeaClientOptions) {
    this.#o = options;
    let resolve!: () => void;
    const promise = new Promise<void>((r) => {
      resolve = r;
    });
    this.#ready = { promise, resolve };
  }

  /** Resolves once connected (tcp) or bound (udp) the first time. */
  get ready(): Promise<void> {
    return this.#ready.promise;
  }

  /** The bound UDP port (useful with port 0), or the TCP connection's local port. */
  get localPort(): number | null {
    return this.#localPort;
  }

  start(): void {
    if (this.#o.address.transport === 'tcp') this.#connect();
    else this.#bind();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    const tcp = this.#tcp;
    const udp = this.#udp;
    this.#tcp = null;
    this.#udp = null;
    if (tcp && !tcp.destroyed) await new Promise<void>((r) => tcp.once('close', () => r()).destroy());
    if (udp) await new Promise<void>((r) => udp.close(() => r()));
  }

  #connect(): void {
    const { host, port } = this.#o.address;
    const socket = net.connect({ host, port });
    this.#tcp = socket;
    socket.setEncoding('latin1');
    socket.setKeepAlive(true, 30_000);
    if (this.#o.idleTimeoutMs > 0) socket.setTimeout(this.#o.idleTimeoutMs);
    socket.on('connect', () => {
      this.#localPort = socket.localPort ?? null;
      this.#o.log.info({ host, port }, 'AIS stream connected');
      this.#ready.resolve();
    });
    socket.on('data', (chunk: string) => {
      // Only a connection that delivers resets the backoff: one that is accepted and dropped at once is a failure.
      this.#failures = 0;
      this.#framer.push(chunk, this.#o.onLine);
    });
    socket.on('timeout', () => socket.destroy(new Error(`nothing received for ${this.#o.idleTimeoutMs} ms`)));
    socket.on('error', (err) => this.#o.log.warn({ err, host, port }, 'AIS stream connection failed'));
    socket.on('close', () => {
      this.#framer.reset();
      if (this.#stopped || this.#tcp !== socket) return;
      this.#tcp = null;
      this.#retry(() => this.#connect());
    });
  }

  #bind(): void {
    const { host, port } = this.#o.address;
    const socket = dgram.createSocket({ type: isIPv6(host) ? 'udp6' : 'udp4', reuseAddr: true });
    this.#udp = socket;
    // A datagram holds whole sentences: lines never continue into the next one.
    socket.on('message', (msg) => {
      this.#framer.push(`${msg.toString('latin1')}\n`, this.#o.onLine);
      this.#framer.reset();
    });
    socket.on('listening', () => {
      this.#failures = 0;
      this.#localPort = socket.address().port;
      this.#o.log.info({ host, port: this.#localPort }, 'AIS stream listening');
      this.#ready.resolve();
    });
    socket.on('error', (err) => {
      this.#o.log.warn({ err, host, port }, 'AIS stream socket failed');
      if (this.#stopped || this.#udp !== socket) return;
      this.#udp = null;
      socket.close();
      this.#retry(() => this.#bind());
    });
    socket.bind(port, host);
  }

  #retry(again: () => void): void {
    const { initialMs, maxMs } = this.#o.reconnect;
    const delay = Math.min(maxMs, initialMs * 2 ** Math.min(this.#failures, 30));
    this.#failures++;
    this.#o.log.debug({ delayMs: delay, failures: this.#failures }, 'AIS stream: trying again');
    this.#timer = setTimeout(() => {
      this.#timer = null;
      if (!this.#stopped) again();
    }, delay);
  }
}
