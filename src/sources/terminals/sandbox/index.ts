// The simulated POD terminals (`terminal:sandbox`): one source for every terminal in the reference table,
// the target's facility code choosing which one answers. Their API is Tidemark's own small JSON shape (README).
import { z } from 'zod';
import { checkContainerNumber } from '../../../domain/container-number.js';
import { type SourceAdapter, type SourceDefinition, SourceError } from '../../contract.js';
import { payloadSha256 } from '../../http.js';
import { TERMINALS, terminalNaturalKey } from '../../reference/index.js';
import { TerminalClient } from './client.js';
import { parseTerminalContainer } from './parse.js';

export { EVENT_TYPE, feeTypeOf, holdNameOf, holdType, milestoneOf } from './codes.js';
export { parseTerminalContainer } from './parse.js';
export type { TerminalContainer } from './raw.js';

export const terminalSandboxConfigSchema = z.object({
  /** `{sandboxUrl}/sandbox/terminals`: containers are read from `{baseUrl}/{facility code}/containers/{number}`. */
  baseUrl: z.url({ protocol: /^https?$/, normalize: false }),
  timeoutMs: z.number().int().min(100).max(300_000).default(30_000),
});
export type TerminalSandboxConfig = z.output<typeof terminalSandboxConfigSchema>;

/**
 * Every reference terminal by its natural key: the FIRMS code (`W185`), else port and SMDG code (`USJAX:TMT`:
 * SMDG codes repeat across ports, MATS is Oakland's and Honolulu's), else port and reference-API code.
 */
export const SANDBOX_TERMINAL_CODES: readonly string[] = Object.freeze(TERMINALS.map(terminalNaturalKey));

/** The code the terminal's API is addressed by: the FIRMS, SMDG or reference-API code of a natural key. */
export function terminalPathCode(facilityCode: string): string {
  return facilityCode.trim().toUpperCase().split(':').pop()!;
}

export function terminalSandboxSource(options: { fetch?: typeof globalThis.fetch } = {}): SourceDefinition<TerminalSandboxConfig> {
  const id = 'terminal:sandbox';
  return {
    id,
    kind: 'terminal',
    name: 'Sandbox terminals',
    tracks: { facilityCodes: SANDBOX_TERMINAL_CODES, numberTypes: ['container'] },
    configSchema: terminalSandboxConfigSchema,
    create(config: TerminalSandboxConfig): SourceAdapter {
      const client = new TerminalClient({ ...config, fetch: options.fetch });
      return {
        async fetch(target, ctx) {
          ctx.signal.throwIfAborted();
          if (target.numberType !== 'container')
            throw new SourceError('invalid_number', `${id}: terminals track containers, not ${target.numberType}`);
          const facility = target.facilityCode?.trim() ? terminalPathCode(target.facilityCode) : '';
          if (!facility) throw new TypeError(`${id}: the target names no facilityCode (which terminal to ask)`);
          const check = checkContainerNumber(target.number);
          if (!check.valid)
            throw new SourceError('invalid_number', `${id}: ${target.number} is not an ISO 6346 container number (${check.reason})`);
          const payload = await client.container(facility, check.normalized, ctx);
          const facts = parseTerminalContainer(payload);
          return { sourceId: id, target, fetchedAt: ctx.now(), payload, payloadSha256: payloadSha256(payload), facts };
        },
      };
    },
  };
}
