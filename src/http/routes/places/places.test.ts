import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../../../../test/kit/app.js';
import { referenceId } from '../../../lib/ids.js';
import { PlaceService } from '../../../services/places.js';
import { resolveIncluded } from '../../../render/jsonapi.js';
import { facilityRef, locationRef, placeKinds, portRef, terminalInclude } from '../../../render/places.js';
import { portByLocode, railHubByLocode, terminalByFirmsCode, terminalsByPortLocode } from '../../../sources/reference/index.js';

let t: TestApp;
let auth: { authorization: string };
beforeAll(async () => {
  t = await testApp();
  ({ auth } = await t.account());
});
afterAll(() => t.close());

const get = (url: string, headers: Record<string, string> = auth) => t.app.inject({ url, headers });

describe('GET /v2/ports/{id or LOCODE}', () => {
  it('finds a port by UN/LOCODE, the self link echoing the code, lat/long as strings', async () => {
    const res = await get('/v2/ports/DEHAM');
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    const hamburg = portByLocode('DEHAM')!;
    expect(doc.links).toEqual({ self: 'http://tidemark.test/v2/ports/DEHAM' });
    expect(doc.data).toEqual({
      id: referenceId('port', 'DEHAM'),
      type: 'port',
      attributes: {
        id: referenceId('port', 'DEHAM'),
        name: hamburg.name,
        code: 'DEHAM',
        state_abbr: null,
        city: null,
        country_code: 'DE',
        time_zone: 'Europe/Berlin',
        latitude: hamburg.latitude.toFixed(4),
        longitude: hamburg.longitude.toFixed(4),
      },
      relationships: { terminals: { data: [] } },
    });
    expect(doc.data.attributes.latitude).toMatch(/^-?\d+\.\d{4}$/);
  });

  it('finds the same port by its id, the self link echoing the id', async () => {
    const id = referenceId('port', 'DEHAM');
    const res = await get(`/v2/ports/${id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().data.attributes.code).toBe('DEHAM');
    expect(res.json().links.self).toBe(`http://tidemark.test/v2/ports/${id}`);
    expect((await get('/v2/ports/deham')).json().data.id).toBe(id);
  });

  it('lists its terminals and includes them; the state comes from them when they agree', async () => {
    const doc = (await get('/v2/ports/USLAX?include=terminals')).json();
    const terminals = terminalsByPortLocode('USLAX');
    expect(terminals.length).toBeGreaterThan(1);
    expect(doc.data.attributes.state_abbr).toBe('CA');
    expect(doc.data.relationships.terminals.data).toEqual(terminals.map((x) => ({ id: x.id, type: 'terminal' })));
    expect(doc.included.map((x: { id: string }) => x.id).sort()).toEqual(terminals.map((x) => x.id).sort());
    for (const x of doc.included) expect(x.relationships.port.data).toEqual({ id: doc.data.id, type: 'port' });
    // New York's terminals are in New York and New Jersey: no single state.
    expect((await get('/v2/ports/USNYC')).json().data.attributes.state_abbr).toBeNull();
  });

  it.each(['XXXXX', referenceId('port', 'XXXXX'), 'USCHI'])('answers JSON 404 for %s', async (key) => {
    const res = await get(`/v2/ports/${key}`);
    expect(res.statusCode).toBe(404);
    expect(res.json().errors[0]).toMatchObject({ status: '404', title: 'Not Found' });
  });

  it('needs an API key', async () => {
    const res = await get('/v2/ports/DEHAM', {});
    expect(res.statusCode).toBe(401);
    expect(res.json().errors[0]).toMatchObject({ status: '401', title: 'Unauthorized' });
  });

  it('rejects an unknown include with 400', async () => {
    const res = await get('/v2/ports/DEHAM?include=vessels');
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0].source).toEqual({ parameter: 'include' });
  });
});

describe('GET /v2/metro_areas/{id or LOCODE}', () => {
  it('finds a metro area by UN/LOCODE and by id', async () => {
    const chicago = railHubByLocode('USCHI')!;
    const byCode = await get('/v2/metro_areas/USCHI');
    expect(byCode.statusCode).toBe(200);
    expect(byCode.json()).toEqual({
      data: {
        id: chicago.id,
        type: 'metro_area',
        attributes: {
          name: 'Chicago',
          code: 'USCHI',
          state_abbr: 'IL',
          country_code: 'US',
          time_zone: 'America/Chicago',
          latitude: chicago.lat.toFixed(4),
          longitude: chicago.lon.toFixed(4),
        },
        relationships: {},
      },
      links: { self: 'http://tidemark.test/v2/metro_areas/USCHI' },
    });
    const byId = await get(`/v2/metro_areas/${chicago.id}`);
    expect(byId.json().data.attributes.code).toBe('USCHI');
    expect(byId.json().links.self).toBe(`http://tidemark.test/v2/metro_areas/${chicago.id}`);
  });

  it.each(['DEHAM', 'ZZZZZ', referenceId('metro_area', 'ZZZZZ')])('answers JSON 404 for %s', async (key) => {
    const res = await get(`/v2/metro_areas/${key}`);
    expect(res.statusCode).toBe(404);
    expect(res.json().errors[0]).toMatchObject({ status: '404', title: 'Not Found' });
  });

  it('needs an API key', async () => {
    expect((await get('/v2/metro_areas/USCHI', {})).statusCode).toBe(401);
  });
});

describe('GET /v2/terminals/{id}', () => {
  const virginia = terminalByFirmsCode('N195')!;

  it('finds a terminal by id with its port; nothing is invented', async () => {
    const res = await get(`/v2/terminals/${virginia.id}?include=port`);
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.links.self).toBe(`http://tidemark.test/v2/terminals/${virginia.id}?include=port`);
    expect(doc.data).toMatchObject({
      id: virginia.id,
      type: 'terminal',
      attributes: {
        id: virginia.id,
        name: virginia.name,
        nickname: virginia.nickname,
        firms_code: 'N195',
        smdg_code: virginia.smdgCode,
        bic_facility_code: null,
        street: null,
        city: virginia.city,
        state: 'Virginia',
        state_abbr: 'VA',
        zip: null,
        country: 'United States',
        facility_type: 'ocean_terminal',
        // The sandbox is off here: no source answers for the terminal.
        provided_data: null,
      },
      relationships: { port: { data: { id: referenceId('port', virginia.portLocode), type: 'port' } } },
    });
    expect(doc.included).toHaveLength(1);
    expect(doc.included[0]).toMatchObject({ id: referenceId('port', virginia.portLocode), type: 'port' });
  });

  it('is found by id only', async () => {
    for (const key of ['N195', referenceId('terminal', 'NOPE')]) {
      const res = await get(`/v2/terminals/${key}`);
      expect(res.statusCode).toBe(404);
      expect(res.json().errors[0]).toMatchObject({ status: '404', title: 'Not Found' });
    }
  });

  it('needs an API key', async () => {
    expect((await get(`/v2/terminals/${virginia.id}`, {})).statusCode).toBe(401);
  });

  it("reports what the sandbox terminal's source provides when the sandbox answers for it", async () => {
    const s = await testApp({ sandbox: true });
    try {
      const { auth: headers } = await s.account();
      const doc = (await s.app.inject({ url: `/v2/terminals/${virginia.id}`, headers })).json();
      const provided = doc.data.attributes.provided_data;
      for (const field of [
        'pickup_lfd',
        'pod_full_out_at',
        'available_for_pickup',
        'fees_at_pod_terminal',
        'holds_at_pod_terminal',
        'pickup_appointment_at',
        'location_at_pod_terminal',
        'pod_full_out_chassis_number',
      ]) {
        expect(typeof provided[field], field).toBe('boolean');
      }
    } finally {
      await s.close();
    }
  });
});

describe('refs to places', () => {
  const virginia = terminalByFirmsCode('N195')!;
  const places = new PlaceService({ sandbox: false });

  it('name a reference terminal, a rail terminal by its code, and nothing that cannot be rendered', () => {
    const rail = { kind: 'rail_terminal', id: null, code: 'BNSFLPC', codeList: 'firms', firmsCode: 'BNSFLPC', name: 'BNSF Logistics Park' };
    expect(facilityRef({ kind: 'terminal', id: virginia.id, code: 'VIG', codeList: 'smdg', firmsCode: 'N195', name: null })).toEqual({
      id: virginia.id,
      type: 'terminal',
    });
    expect(facilityRef(rail)).toEqual({ id: referenceId('rail_terminal', 'BNSFLPC'), type: 'rail_terminal' });
    // An ocean terminal missing from the reference table, or an id no longer in it: no ref at all.
    expect(facilityRef({ kind: 'terminal', id: null, code: 'ZZZ', codeList: 'smdg', firmsCode: null, name: null })).toBeNull();
    expect(
      facilityRef({ kind: 'terminal', id: referenceId('terminal', 'GONE'), code: 'GONE', codeList: null, firmsCode: null, name: null }),
    ).toBeNull();
    expect(facilityRef(null)).toBeNull();
  });

  it('name ports and metro areas only when the reference tables hold them', () => {
    expect(portRef('USLAX')).toEqual({ id: referenceId('port', 'USLAX'), type: 'port' });
    expect(portRef('ZZZZZ')).toBeNull();
    expect(locationRef('USCHI', 'metro_area')).toEqual({ id: railHubByLocode('USCHI')!.id, type: 'metro_area' });
    // A ramp's LOCODE is its hub's metro area.
    expect(locationRef('USJOT', 'metro_area')).toEqual({ id: railHubByLocode('USCHI')!.id, type: 'metro_area' });
    expect(locationRef('USCHI', null)).toEqual({ id: railHubByLocode('USCHI')!.id, type: 'metro_area' });
    expect(locationRef('ZZZZZ', 'port')).toBeNull();
    expect(locationRef(null, 'port')).toBeNull();
  });

  it('include terminals and rail terminals under the ids the refs carry', async () => {
    const rail = { kind: 'rail_terminal', id: null, code: 'BNSFLPC', codeList: 'firms', firmsCode: 'BNSFLPC', name: null };
    const ocean = { kind: 'terminal', id: virginia.id, code: 'VIG', codeList: 'smdg', firmsCode: 'N195', name: null };
    const holder = {
      type: 'holder',
      render: (r: { facilities: unknown[] }) => ({
        id: 'h',
        type: 'holder',
        attributes: {},
        relationships: { terminal: { data: r.facilities.map(facilityRef) as { id: string; type: string }[] } },
      }),
      includable: {
        terminal: terminalInclude(places, (r: { facilities: unknown[] }) => r.facilities),
      },
    };
    const included = await resolveIncluded(holder, [{ facilities: [ocean, rail, rail] }], new Map([['terminal', new Map()]]));
    expect(included.map((o) => ({ id: o.id, type: o.type }))).toEqual([facilityRef(ocean), facilityRef(rail)]);
    expect(included[1]).toEqual({
      id: referenceId('rail_terminal', 'BNSFLPC'),
      type: 'rail_terminal',
      // No name from the source: its code, which is what it called the terminal.
      attributes: { name: 'BNSFLPC', nickname: null, firms_code: 'BNSFLPC', city: null },
      relationships: { port: { data: null }, metro_area: { data: null } },
    });
    expect(placeKinds(places).terminal.render(places.terminal(virginia.id)).attributes.provided_data).toBeNull();
  });
});
