// The source registry: which adapter, configured how, answers for each carrier, terminal, railroad and for
// vessel positions. Every carrier is a DCSA Track & Trace source; per carrier the configuration chooses a
// real endpoint (TIDEMARK_CARRIER_<SCAC>_*) or, while the sandbox is on, the simulated carrier's DCSA face.
// A new source is one folder plus one line here.
import { aisSandboxSource } from './ais/sandbox/index.js';
import type { CarrierEndpointSetting } from './carrier-config.js';
import { dcsaCarrierSource, parseAuthSetting } from './carriers/dcsa/index.js';
import type { SourceAdapter, SourceDefinition, SourceKind } from './contract.js';
import { railSandboxSource } from './rail/sandbox/index.js';
import { CARRIERS, carrierByScac, railroadByScacOrMark } from './reference/index.js';
import { terminalSandboxSource } from './terminals/sandbox/index.js';

/** The reference API's test carrier: accepted by tracking requests, never listed; the sandbox answers it. */
export const TEST_SCAC = 'TEST';

export interface RegistryOptions {
  /** Root URL of the sandbox faces (`…/sandbox/…` hang from it); null when the sandbox is off. */
  sandboxUrl: string | null;
  /** Real endpoints per carrier SCAC (validated at start by `carrierSettingProblems`). */
  carriers: Record<string, CarrierEndpointSetting>;
  /** An injected transport for every adapter (tests); defaults to the global fetch. */
  fetch?: typeof globalThis.fetch;
}

export interface RegisteredSource {
  /** `dcsa:MAEU`, `terminal:sandbox`, … */
  id: string;
  kind: SourceKind;
  /** Where its data comes from: the simulated world or a configured real endpoint. */
  origin: 'sandbox' | 'real';
  definition: SourceDefinition<never>;
  adapter: SourceAdapter;
  /** Requests a minute we may send it (shared by every process); null: no limit of ours. */
  rateLimitPerMinute: number | null;
}

export class SourceRegistry {
  readonly #carriers = new Map<string, RegisteredSource>();
  readonly #railroads = new Map<string, RegisteredSource>();
  readonly #terminals = new Map<string, RegisteredSource>();
  readonly #ais: RegisteredSource | null;

  constructor(options: RegistryOptions) {
    const sandbox = options.sandboxUrl?.replace(/\/+$/, '') ?? null;
    const fetch = options.fetch ? { fetch: options.fetch } : {};

    for (const carrier of [...CARRIERS.map((c) => ({ scac: c.scac, name: c.name })), { scac: TEST_SCAC, name: 'Test carrier' }]) {
      const definition = dcsaCarrierSource({ scac: carrier.scac, name: carrier.name, ...fetch });
      const real = options.carriers[carrier.scac];
      if (real?.url) {
        const config = definition.configSchema.parse({
          baseUrl: real.url,
          ...(real.version ? { version: real.version } : {}),
          ...(real.arrivalNoticeUrl ? { arrivalNoticeUrl: real.arrivalNoticeUrl } : {}),
          ...(real.auth !== undefined ? { auth: parseAuthSetting(real.auth) } : {}),
        });
        this.#carriers.set(carrier.scac, registered(definition, config, 'real', real.rateLimitPerMinute ?? null));
      } else if (sandbox) {
        const base = `${sandbox}/sandbox/carriers/${carrier.scac}`;
        // The simulated carriers publish arrival notices too (weights, seals, free time: what TNT lacks).
        const config = definition.configSchema.parse({ baseUrl: base, version: '2.2', arrivalNoticeUrl: `${base}/v1` });
        this.#carriers.set(carrier.scac, registered(definition, config, 'sandbox'));
      }
    }

    if (sandbox) {
      const terminal = terminalSandboxSource(fetch);
      const terminalSource = registered(terminal, terminal.configSchema.parse({ baseUrl: `${sandbox}/sandbox/terminals` }), 'sandbox');
      for (const code of terminal.tracks.facilityCodes ?? []) this.#terminals.set(code.toUpperCase(), terminalSource);
      const rail = railSandboxSource(fetch);
      const railSource = registered(rail, rail.configSchema.parse({ baseUrl: `${sandbox}/sandbox/rail` }), 'sandbox');
      for (const scac of rail.tracks.scacs ?? []) this.#railroads.set(scac.toUpperCase(), railSource);
      const ais = aisSandboxSource(fetch);
      this.#ais = registered(ais, ais.configSchema.parse({ baseUrl: `${sandbox}/sandbox/ais` }), 'sandbox');
    } else {
      this.#ais = null;
    }
  }

  /** The source for a carrier by SCAC or alternative SCAC (and `TEST`); undefined when none is configured. */
  carrier(scac: string): RegisteredSource | undefined {
    const code = scac.trim().toUpperCase();
    if (code === TEST_SCAC) return this.#carriers.get(TEST_SCAC);
    const carrier = carrierByScac(code);
    return carrier ? this.#carriers.get(carrier.scac) : undefined;
  }

  /** The source for a POD terminal by FIRMS code (or SMDG-based key for terminals without one). */
  terminal(facilityCode: string): RegisteredSource | undefined {
    return this.#terminals.get(facilityCode.trim().toUpperCase());
  }

  /** The source for a Class I railroad by SCAC or reporting mark. */
  railroad(code: string): RegisteredSource | undefined {
    const railroad = railroadByScacOrMark(code);
    return railroad ? this.#railroads.get(railroad.scac) : undefined;
  }

  /** The source of vessel positions, when one is configured. */
  ais(): RegisteredSource | undefined {
    return this.#ais ?? undefined;
  }

  /** Every registered source once, for the contract suite and for health reporting. */
  all(): RegisteredSource[] {
    const unique = new Map<string, RegisteredSource>();
    for (const s of [
      ...this.#carriers.values(),
      ...this.#terminals.values(),
      ...this.#railroads.values(),
      ...(this.#ais ? [this.#ais] : []),
    ]) {
      unique.set(s.id, s);
    }
    return [...unique.values()];
  }
}

function registered<C>(
  definition: SourceDefinition<C>,
  config: C,
  origin: 'sandbox' | 'real',
  rateLimitPerMinute: number | null = null,
): RegisteredSource {
  return {
    id: definition.id,
    kind: definition.kind,
    origin,
    definition: definition as unknown as SourceDefinition<never>,
    adapter: definition.create(config),
    rateLimitPerMinute,
  };
}
