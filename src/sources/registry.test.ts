import { describe, expect, it } from 'vitest';
import { CARRIERS, RAILROADS, TERMINALS, terminalNaturalKey } from './reference/index.js';
import { SourceRegistry, TEST_SCAC } from './registry.js';

const SANDBOX = 'http://127.0.0.1:9999';

describe('source registry', () => {
  it('maps every carrier and the test SCAC to a DCSA source on the sandbox when nothing is configured', () => {
    const registry = new SourceRegistry({ sandboxUrl: SANDBOX, carriers: {} });
    for (const c of CARRIERS) {
      const source = registry.carrier(c.scac);
      expect(source?.id, c.scac).toBe(`dcsa:${c.scac}`);
      expect(source?.origin).toBe('sandbox');
      expect(source?.kind).toBe('carrier');
    }
    expect(registry.carrier(TEST_SCAC)?.id).toBe('dcsa:TEST');
    expect(registry.carrier('test')?.id).toBe('dcsa:TEST');
    expect(registry.carrier('ZZZZ')).toBeUndefined();
  });

  it('finds a carrier by an alternative SCAC', () => {
    const registry = new SourceRegistry({ sandboxUrl: SANDBOX, carriers: {} });
    const withAlt = CARRIERS.find((c) => c.alternativeScacs.length > 0)!;
    expect(registry.carrier(withAlt.alternativeScacs[0]!)?.id).toBe(`dcsa:${withAlt.scac}`);
  });

  it('uses a real endpoint for a configured carrier and keeps the sandbox for the others', () => {
    const registry = new SourceRegistry({
      sandboxUrl: SANDBOX,
      carriers: { MAEU: { url: 'https://api.maersk.example/track', auth: 'header:Consumer-Key:abc', version: '3.0' } },
    });
    expect(registry.carrier('MAEU')?.origin).toBe('real');
    expect(registry.carrier('MSCU')?.origin).toBe('sandbox');
  });

  it('with the sandbox off, serves only configured carriers and no terminal, rail or AIS source', () => {
    const registry = new SourceRegistry({ sandboxUrl: null, carriers: { HLCU: { url: 'https://hl.example/dcsa' } } });
    expect(registry.carrier('HLCU')?.origin).toBe('real');
    expect(registry.carrier('MAEU')).toBeUndefined();
    expect(registry.terminal(TERMINALS[0]!.firmsCode ?? '')).toBeUndefined();
    expect(registry.railroad('BNSF')).toBeUndefined();
    expect(registry.ais()).toBeUndefined();
    expect(registry.all().map((s) => s.id)).toEqual(['dcsa:HLCU']);
  });

  it('serves every terminal by its key and every Class I railroad by SCAC or reporting mark', () => {
    const registry = new SourceRegistry({ sandboxUrl: SANDBOX, carriers: {} });
    for (const terminal of TERMINALS) expect(registry.terminal(terminalNaturalKey(terminal))?.kind, terminal.name).toBe('terminal');
    for (const railroad of RAILROADS) {
      expect(registry.railroad(railroad.scac)?.kind).toBe('rail');
      expect(registry.railroad(railroad.reportingMarks[0]!)?.kind).toBe('rail');
    }
    expect(registry.ais()?.kind).toBe('ais');
    const kinds = new Set(registry.all().map((s) => s.kind));
    expect(kinds).toEqual(new Set(['carrier', 'terminal', 'rail', 'ais']));
  });
});
