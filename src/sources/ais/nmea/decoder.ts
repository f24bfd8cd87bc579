// NMEA lines → decoded AIS messages, with ggencoder doing the decoding and the multi-part reassembly. What this
// adds: NMEA 4 tag blocks are stripped, and each multi-part message gets its own reassembly session (keyed by
// formatter, channel and sequence id), so interleaved messages do not mix and a lost part spoils only its own.
import ggencoder from 'ggencoder';

export type RejectReason =
  /** Not an AIVDM/AIVDO sentence (another NMEA sentence, noise, a cut line). */
  | 'not_ais'
  /** The checksum does not match: damaged in transit. */
  | 'checksum'
  /** A later part of a multi-part message whose earlier parts never came (or came damaged). */
  | 'orphan_part'
  /** An AIS sentence the decoder could not read. */
  | 'undecodable';

export type DecodeResult =
  | { kind: 'message'; message: Record<string, unknown> }
  /** A part of a multi-part message; the message comes with its last part. */
  | { kind: 'pending' }
  | { kind: 'rejected'; reason: RejectReason; detail: string };

/** `!AIVDM,2,1,3,B,<payload>,0*hh`: talker + formatter, part count, part number, sequence id, channel. */
const SENTENCE = /^!([A-Z]{2}VD[MO]),([1-9]),([1-9]),([0-9]?),([A-Z0-9]?),/;
/** `\s:rx1,c:1700000000*5A\` before the sentence. */
const TAG_BLOCK = /^\\[^\\]*\\/;

/** Parts of one message follow each other within a second or two; an older unfinished message is abandoned. */
const SESSION_TTL_MS = 30_000;
/** At most this many unfinished messages (formatters × channels × 10 sequence ids is far fewer in practice). */
const MAX_SESSIONS = 256;

interface Session {
  state: Record<string, unknown>;
  startedAt: number;
}

export class NmeaDecoder {
  readonly #sessions = new Map<string, Session>();

  /** One line as received (whitespace and a tag block are fine); `receivedAt` ages unfinished messages. */
  push(raw: string, receivedAt: Date): DecodeResult {
    const line = raw.trim().replace(TAG_BLOCK, '');
    const m = SENTENCE.exec(line);
    if (!m) return rejected('not_ais', line.slice(0, 20));
    const count = Number(m[2]);
    const part = Number(m[3]);
    if (part > count) return rejected('undecodable', `part ${part} of ${count}`);
    const now = receivedAt.getTime();
    const key = `${m[1]}|${m[5]}|${m[4]}`;
    let session: Session | undefined;
    if (count > 1) {
      this.#prune(now);
      if (part === 1) {
        session = { state: {}, startedAt: now };
        this.#sessions.delete(key);
        this.#sessions.set(key, session);
      } else {
        session = this.#sessions.get(key);
        if (!session) return rejected('orphan_part', `part ${part} of ${count}, sequence ${m[4] || 'none'}`);
      }
    }
    let decoded: InstanceType<typeof ggencoder.AisDecode>;
    try {
      decoded = new ggencoder.AisDecode(line, session?.state ?? {});
    } catch (err) {
      this.#sessions.delete(key);
      return rejected('undecodable', String(err));
    }
    if (decoded.error) {
      if (session) this.#sessions.delete(key);
      const reason = /checksum/i.test(decoded.error) ? 'checksum' : /session/i.test(decoded.error) ? 'orphan_part' : 'undecodable';
      return rejected(reason, decoded.error);
    }
    if (session) {
      if (part < count) return { kind: 'pending' };
      this.#sessions.delete(key);
    }
    // Without a message type the payload itself was unreadable; with one, `valid: false` only means a field out
    // of range (a position "not available"), which parsing handles.
    if (typeof decoded.aistype !== 'number') return rejected('undecodable', 'unreadable payload');
    const { bitarray: _bits, payload: _payload, ...message } = decoded;
    return { kind: 'message', message };
  }

  #prune(now: number): void {
    for (const [key, s] of this.#sessions) {
      if (now - s.startedAt > SESSION_TTL_MS || this.#sessions.size > MAX_SESSIONS) this.#sessions.delete(key);
      else break;
    }
  }
}

const rejected = (reason: RejectReason, detail: string): DecodeResult => ({ kind: 'rejected', reason, detail });
