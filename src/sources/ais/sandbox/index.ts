// The simulated AIS feed (`ais:sandbox`): vessel positions by IMO number. Its API is Tidemark's own small
// JSON shape (README).
import { z } from 'zod';
import { type SourceAdapter, type SourceDefinition, SourceError } from '../../contract.js';
import { payloadSha256 } from '../../http.js';
import { AisClient } from './client.js';
import { parseAisVessel } from './parse.js';

export { parseAisVessel } from './parse.js';
export type { AisPosition, AisVessel } from './raw.js';

export const aisSandboxConfigSchema = z.object({
  /** `{sandboxUrl}/sandbox/ais`: tracks are read from `{baseUrl}/vessels/{imo}`. */
  baseUrl: z.url({ protocol: /^https?$/, normalize: false }),
  timeoutMs: z.number().int().min(100).max(300_000).default(30_000),
});
export type AisSandboxConfig = z.output<typeof aisSandboxConfigSchema>;

export function aisSandboxSource(options: { fetch?: typeof globalThis.fetch } = {}): SourceDefinition<AisSandboxConfig> {
  const id = 'ais:sandbox';
  return {
    id,
    kind: 'ais',
    name: 'Sandbox AIS',
    tracks: { numberTypes: ['vessel_imo'] },
    configSchema: aisSandboxConfigSchema,
    create(config: AisSandboxConfig): SourceAdapter {
      const client = new AisClient({ ...config, fetch: options.fetch });
      return {
        async fetch(target, ctx) {
          ctx.signal.throwIfAborted();
          if (target.numberType !== 'vessel_imo')
            throw new SourceError('invalid_number', `${id}: AIS tracks vessels (vessel_imo), not ${target.numberType}`);
          const imo = target.number.trim().replace(/^IMO\s*/i, '');
          if (!/^\d{7}$/.test(imo)) throw new SourceError('invalid_number', `${id}: ${target.number} is not a 7-digit IMO number`);
          const payload = await client.vessel(imo, ctx);
          const facts = parseAisVessel(payload);
          return { sourceId: id, target, fetchedAt: ctx.now(), payload, payloadSha256: payloadSha256(payload), facts };
        },
      };
    },
  };
}
