// A real AIS feed (`ais:nmea`): an NMEA 0183 AIVDM/AIVDO stream over TCP or UDP, as receivers and aggregators
// deliver it. A push source: opened once, it hands over facts as they arrive, so it is not in the fetch registry.
import { z } from 'zod';
import { formatStreamUrl, parseStreamUrl } from '../../../lib/stream-url.js';
import { SourceError } from '../../contract.js';
import { NmeaClient, type StreamLog } from './client.js';
import { NmeaDecoder, type RejectReason } from './decoder.js';
import { type AisFacts, parseAisMessage } from './parse.js';

export type { StreamLog } from './client.js';
export type { RejectReason } from './decoder.js';
export { type AisFacts, type AisPositionFact, type AisStaticFact, parseAisMessage } from './parse.js';

export const aisNmeaConfigSchema = z.object({
  /** `tcp://host:port` (connect) or `udp://host:port` (bind). */
  url: z.string().transform((text, ctx) => {
    try {
      return parseStreamUrl(text);
    } catch (err) {
      ctx.addIssue({ code: 'custom', message: (err as Error).message });
      return z.NEVER;
    }
  }),
  reconnectInitialMs: z.number().int().min(1).max(600_000).default(1_000),
  reconnectMaxMs: z.number().int().min(1).max(3_600_000).default(60_000),
  /** TCP: reconnect when nothing arrives for this long; 0 = never. */
  idleTimeoutMs: z.number().int().min(0).default(300_000),
});
export type AisNmeaConfig = z.output<typeof aisNmeaConfigSchema>;

/** Why a line gave nothing: the decoder's reasons, or a decoded message that did not match its schema. */
export type LineRejection = RejectReason | 'bad_message';

export type LineResult =
  | { kind: 'facts'; facts: AisFacts }
  /** A part of a multi-part message, or a message type that says nothing we keep (base stations…). */
  | { kind: 'nothing' }
  | { kind: 'rejected'; reason: LineRejection; detail: string };

/** Lines in, facts out: the decoder (with its multi-part sessions) and the pure parser, one line at a time. */
export class AisLineReader {
  readonly #decoder = new NmeaDecoder();

  read(line: string, receivedAt: Date): LineResult {
    const decoded = this.#decoder.push(line, receivedAt);
    if (decoded.kind === 'pending') return { kind: 'nothing' };
    if (decoded.kind === 'rejected') return decoded;
    try {
      const facts = parseAisMessage(decoded.message, receivedAt);
      return facts.positions.length || facts.statics.length ? { kind: 'facts', facts } : { kind: 'nothing' };
    } catch (err) {
      if (err instanceof SourceError) return { kind: 'rejected', reason: 'bad_message', detail: err.message };
      throw err;
    }
  }
}

export interface AisStreamStats {
  lines: number;
  positions: number;
  statics: number;
  rejected: Partial<Record<LineRejection, number>>;
}

export interface AisStreamHandlers {
  /** Domain time: the receive time of each line, which is the time of its facts. */
  now(): Date;
  /** Called for every line that gives facts. Must not throw (what it throws is logged and dropped). */
  onFacts(facts: AisFacts): void;
  log: StreamLog;
}

export interface AisStream {
  /** The stream's address as configured. */
  readonly url: string;
  /** Resolves once connected (tcp) or bound (udp) the first time. */
  readonly ready: Promise<void>;
  /** The bound UDP port (with port 0), or the TCP connection's local port. */
  readonly localPort: number | null;
  stats(): AisStreamStats;
  /** Closes the connection or socket and stops reconnecting. */
  stop(): Promise<void>;
}

export interface AisStreamSource<Config> {
  id: string;
  kind: 'ais';
  name: string;
  configSchema: z.ZodType<Config, unknown>;
  open(config: Config, handlers: AisStreamHandlers): AisStream;
}

export function aisNmeaSource(): AisStreamSource<AisNmeaConfig> {
  return {
    id: 'ais:nmea',
    kind: 'ais',
    name: 'AIS NMEA stream',
    configSchema: aisNmeaConfigSchema,
    open(config, handlers) {
      const reader = new AisLineReader();
      const stats: AisStreamStats = { lines: 0, positions: 0, statics: 0, rejected: {} };
      const url = formatStreamUrl(config.url);
      const onLine = (line: string) => {
        stats.lines++;
        // A line handler runs in a socket event: whatever goes wrong stays with this line.
        try {
          const result = reader.read(line, handlers.now());
          if (result.kind === 'rejected') {
            stats.rejected[result.reason] = (stats.rejected[result.reason] ?? 0) + 1;
            handlers.log.debug({ reason: result.reason, detail: result.detail }, 'AIS line skipped');
          } else if (result.kind === 'facts') {
            stats.positions += result.facts.positions.length;
            stats.statics += result.facts.statics.length;
            handlers.onFacts(result.facts);
          }
        } catch (err) {
          handlers.log.warn({ err, url }, 'AIS line could not be handled');
        }
      };
      const client = new NmeaClient({
        address: config.url,
        onLine,
        log: handlers.log,
        reconnect: { initialMs: config.reconnectInitialMs, maxMs: Math.max(config.reconnectMaxMs, config.reconnectInitialMs) },
        idleTimeoutMs: config.idleTimeoutMs,
      });
      client.start();
      return {
        url,
        ready: client.ready,
        get localPort() {
          return client.localPort;
        },
        stats: () => structuredClone(stats),
        stop: () => client.stop(),
      };
    },
  };
}
