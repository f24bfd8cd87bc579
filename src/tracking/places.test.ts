import { describe, expect, it } from 'vitest';
import { resolvePlace } from './places.js';

describe('resolvePlace: a terminal named without a code', () => {
  it.each([
    // A DCSA carrier names a terminal that has no SMDG code by port and name only.
    ['the exact name at the port', { locode: 'USMSY', name: 'New Orleans Terminal' }, 'Q795'],
    ['case and spacing aside', { locode: 'USMSY', name: '  new orleans   TERMINAL ' }, 'Q795'],
    ['a name no terminal of the port has', { locode: 'USMSY', name: 'Somewhere Else' }, null],
    ['the name at another port', { locode: 'USHOU', name: 'New Orleans Terminal' }, null],
    ['no port', { locode: null, name: 'New Orleans Terminal' }, null],
  ])('%s', (_case, p, firms) => {
    const r = resolvePlace({ ...p, facilityCode: null, facilityCodeList: null });
    expect(r?.facility?.firmsCode ?? null).toBe(firms);
    if (firms) expect(r!.facility).toMatchObject({ code: firms, codeList: 'firms', name: 'New Orleans Terminal' });
  });

  it('a code given wins over the name', () => {
    const r = resolvePlace({ locode: 'USMSY', name: 'New Orleans Terminal', facilityCode: 'Y257', facilityCodeList: 'firms' });
    expect(r?.facility?.firmsCode).toBe('Y257');
  });

  it('a rail terminal is never matched by name to an ocean terminal', () => {
    const r = resolvePlace({ locode: 'USMSY', name: 'New Orleans Terminal', facilityCode: null, facilityCodeList: null }, 'rail_terminal');
    expect(r?.facility).toBeNull();
  });
});
