// The part of ggencoder (CommonJS, untyped) that the NMEA AIS source uses. Decoded fields vary by message type;
// raw.ts validates the ones we read.
declare module 'ggencoder' {
  /**
   * Decodes one NMEA sentence. The parts of a multi-part message must be given the same `session` object, first
   * part first; the last part yields the message. Never throws for bad input: `error` says why, `valid` is false.
   */
  class AisDecode {
    constructor(sentence: string, session?: Record<string, unknown>);
    valid: boolean;
    error: string;
    aistype?: number;
    [field: string]: unknown;
  }
  const ggencoder: { AisDecode: typeof AisDecode };
  export = ggencoder;
}
