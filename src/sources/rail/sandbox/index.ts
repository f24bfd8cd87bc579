// The simulated Class I railroads (`rail:sandbox`): one source for the six, the target's SCAC choosing which
// railroad answers. Their API is Tidemark's own small JSON shape (README).
import { z } from 'zod';
import { checkContainerNumber } from '../../../domain/container-number.js';
import { type SourceAdapter, type SourceDefinition, SourceError } from '../../contract.js';
import { payloadSha256 } from '../../http.js';
import { RAILROADS, railroadByScacOrMark } from '../../reference/index.js';
import { RailClient } from './client.js';
import { parseRailContainer } from './parse.js';

export { parseRailContainer } from './parse.js';
export type { RailContainer } from './raw.js';

export const railSandboxConfigSchema = z.object({
  /** `{sandboxUrl}/sandbox/rail`: containers are read from `{baseUrl}/{railroad SCAC}/containers/{number}`. */
  baseUrl: z.url({ protocol: /^https?$/, normalize: false }),
  timeoutMs: z.number().int().min(100).max(300_000).default(30_000),
});
export type RailSandboxConfig = z.output<typeof railSandboxConfigSchema>;

export const SANDBOX_RAILROAD_SCACS: readonly string[] = Object.freeze(RAILROADS.map((r) => r.scac));

export function railSandboxSource(options: { fetch?: typeof globalThis.fetch } = {}): SourceDefinition<RailSandboxConfig> {
  const id = 'rail:sandbox';
  return {
    id,
    kind: 'rail',
    name: 'Sandbox railroads',
    tracks: { scacs: SANDBOX_RAILROAD_SCACS, numberTypes: ['container'] },
    configSchema: railSandboxConfigSchema,
    create(config: RailSandboxConfig): SourceAdapter {
      const client = new RailClient({ ...config, fetch: options.fetch });
      return {
        async fetch(target, ctx) {
          ctx.signal.throwIfAborted();
          if (target.numberType !== 'container')
            throw new SourceError('invalid_number', `${id}: railroads track containers, not ${target.numberType}`);
          if (!target.scac?.trim()) throw new TypeError(`${id}: the target names no railroad (scac)`);
          // A reporting mark (UP, CN, …) names the same railroad as its SCAC.
          const scac = railroadByScacOrMark(target.scac)?.scac ?? target.scac.trim().toUpperCase();
          const check = checkContainerNumber(target.number);
          if (!check.valid)
            throw new SourceError('invalid_number', `${id}: ${target.number} is not an ISO 6346 container number (${check.reason})`);
          const payload = await client.container(scac, check.normalized, ctx);
          const facts = parseRailContainer(payload);
          return { sourceId: id, target, fetchedAt: ctx.now(), payload, payloadSha256: payloadSha256(payload), facts };
        },
      };
    },
  };
}
