// Addresses of line streams written by operators: `tcp://host:port` (we connect) or `udp://host:port` (we bind).
// Lives in lib so that config can validate TIDEMARK_AIS_NMEA_URL without importing sources/.

export interface StreamAddress {
  transport: 'tcp' | 'udp';
  /** A host name or an IP address (IPv6 without brackets). */
  host: string;
  port: number;
}

const HINT = 'write tcp://HOST:PORT to connect to a receiver or aggregator, or udp://HOST:PORT to listen for datagrams';

/**
 * `tcp://ais.example.net:5631`, `udp://0.0.0.0:10110`, `tcp://[::1]:10110` → address. Throws a sentence naming the
 * input. Port 0 is refused for tcp; for udp it binds a free port (tests).
 */
export function parseStreamUrl(text: string): StreamAddress {
  const bad = (why: string) => new Error(`${JSON.stringify(text)} ${why}: ${HINT}`);
  const m = /^(tcp|udp):\/\/(\[[0-9a-fA-F:.]+\]|[^\s/:@[\]?#]+):(\d{1,5})\/?$/.exec(text.trim());
  if (!m) throw bad('is not a stream address');
  const port = Number(m[3]);
  const transport = m[1] as 'tcp' | 'udp';
  if (port > 65535 || (port === 0 && transport === 'tcp')) throw bad('has no usable port');
  return { transport, host: m[2]!.replace(/^\[|\]$/g, ''), port };
}

export function formatStreamUrl(a: StreamAddress): string {
  return `${a.transport}://${a.host.includes(':') ? `[${a.host}]` : a.host}:${a.port}`;
}
