// The shared contract suite over every adapter: DCSA (2.2 and 3.0), the sandbox terminal, rail and AIS sources.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { aisSandboxSource } from './ais/sandbox/index.js';
import { dcsaCarrierSource } from './carriers/dcsa/index.js';
import type { TrackTarget } from './contract.js';
import { type ContractFixture, describeSourceContract } from './contract-suite.js';
import { railSandboxSource } from './rail/sandbox/index.js';
import { terminalSandboxSource } from './terminals/sandbox/index.js';

const read = (dir: string, file: string): unknown =>
  JSON.parse(readFileSync(path.resolve(import.meta.dirname, dir, 'fixtures', file), 'utf8'));
const payloads = (dir: string) =>
  readdirSync(path.resolve(import.meta.dirname, dir, 'fixtures')).filter((f) => f.endsWith('.json') && !f.endsWith('.expected.json'));

function fixtures(
  dir: string,
  names: string[],
  target: (payload: unknown, name: string) => TrackTarget,
  withExpected = true,
): ContractFixture[] {
  return names.map((name) => {
    const payload = read(dir, name);
    return {
      name,
      target: target(payload, name),
      respond: () => ({ body: payload }),
      ...(withExpected ? { expected: read(dir, name.replace(/\.json$/, '.expected.json')) } : {}),
    };
  });
}

// DCSA: one page per fixture. Expected facts are the parser's with the asked-for number; the fixtures' own
// expectations (no target) are checked in parse.test.ts, so here only validity and determinism are.
const DCSA = 'carriers/dcsa';
const dcsaTarget = (name: string): TrackTarget => {
  const subject = name.split('.')[1];
  if (subject === 'container') return { numberType: 'container', number: 'MSKU1234565', scac: 'TEST' };
  if (subject === 'booking') return { numberType: 'booking_number', number: 'BKG1', scac: 'TEST' };
  return { numberType: 'bill_of_lading', number: 'TEST0412345', scac: 'TEST' };
};
const tnt = payloads(DCSA).filter((n) => n.startsWith('events.'));
const dcsa22 = tnt.filter((n) => Array.isArray(read(DCSA, n)));
const dcsa30 = tnt.filter((n) => !Array.isArray(read(DCSA, n)));
// Stored TNT 2.2 + Arrival Notice payloads (`{ events, arrivalNotices }`): each part served at its own path.
const dcsaAn: ContractFixture[] = payloads(DCSA)
  .filter((n) => n.startsWith('arrival-notices.'))
  .map((name) => {
    const payload = read(DCSA, name) as { events: unknown; arrivalNotices: unknown[] };
    return {
      name,
      target: dcsaTarget(name),
      respond: (url: URL) =>
        url.pathname.endsWith('/arrival-notices') ? { body: { arrivalNotices: payload.arrivalNotices } } : { body: payload.events },
      expected: read(DCSA, name.replace(/\.json$/, '.expected.json')),
    };
  });
const dcsaErrors = [
  { name: 'an empty event list (DCSA says not found with 200 [])', respond: () => ({ body: [] }), kind: 'not_found' as const },
  {
    name: 'a 400 naming the reference parameter',
    respond: () => ({
      status: 400,
      body: { errors: [{ reason: 'invalidQuery', message: 'malformed', property: 'transportDocumentReference' }] },
    }),
    kind: 'invalid_number' as const,
  },
  {
    name: 'any other 400',
    respond: () => ({ status: 400, body: { errors: [{ reason: 'invalidQuery', message: 'limit', property: 'limit' }] } }),
    kind: 'bad_response' as const,
  },
  {
    name: 'only booking-level shipment events',
    respond: () => ({
      body: [
        {
          eventID: '00000000-0000-4000-8000-000000000001',
          eventCreatedDateTime: '2026-01-01T00:00:00Z',
          eventType: 'SHIPMENT',
          eventClassifierCode: 'ACT',
          eventDateTime: '2026-01-01T00:00:00Z',
          shipmentEventTypeCode: 'RECE',
          documentTypeCode: 'BKG',
          documentID: 'BKG1',
        },
      ],
    }),
    kind: 'awaiting_manifest' as const,
  },
  {
    name: 'a CANC shipment event on the booking',
    respond: () => ({
      body: [
        {
          eventID: '00000000-0000-4000-8000-000000000002',
          eventCreatedDateTime: '2026-01-02T00:00:00Z',
          eventType: 'SHIPMENT',
          eventClassifierCode: 'ACT',
          eventDateTime: '2026-01-02T00:00:00Z',
          shipmentEventTypeCode: 'CANC',
          documentTypeCode: 'BKG',
          documentID: 'BKG1',
        },
      ],
    }),
    kind: 'cancelled' as const,
  },
  {
    name: 'a vessel_imo target',
    respond: () => ({ body: [] }),
    kind: 'invalid_number' as const,
    target: { numberType: 'vessel_imo' as const, number: '9321483' },
  },
];

describeSourceContract('dcsa:TEST (TNT 2.2)', {
  source: (fetch) => dcsaCarrierSource({ scac: 'TEST', name: 'Test carrier', fetch }),
  config: { baseUrl: 'http://carrier.test/tnt', version: '2.2' },
  fixtures: fixtures(DCSA, dcsa22, (_p, name) => dcsaTarget(name), false),
  errorCases: dcsaErrors,
});

describeSourceContract('dcsa:TEST (TNT 2.2 with Arrival Notice 1.0.1)', {
  source: (fetch) => dcsaCarrierSource({ scac: 'TEST', name: 'Test carrier', fetch }),
  config: { baseUrl: 'http://carrier.test/tnt', version: '2.2', arrivalNoticeUrl: 'http://carrier.test/an/v1' },
  fixtures: dcsaAn,
  errorCases: dcsaErrors,
});

describeSourceContract('dcsa:TEST (TNT 3.0)', {
  source: (fetch) => dcsaCarrierSource({ scac: 'TEST', name: 'Test carrier', fetch }),
  config: { baseUrl: 'http://carrier.test/tnt', version: '3.0' },
  fixtures: fixtures(DCSA, dcsa30, (_p, name) => dcsaTarget(name), false),
  errorCases: [{ name: 'an empty event list', respond: () => ({ body: { events: [] } }), kind: 'not_found' }],
});

describeSourceContract('terminal:sandbox', {
  source: (fetch) => terminalSandboxSource({ fetch }),
  config: { baseUrl: 'http://sandbox.test/sandbox/terminals' },
  fixtures: fixtures('terminals/sandbox', payloads('terminals/sandbox'), (p) => {
    const payload = p as { container_number: string; facility: { code: string } };
    return { numberType: 'container', number: payload.container_number, facilityCode: payload.facility.code };
  }),
});

describeSourceContract('rail:sandbox', {
  source: (fetch) => railSandboxSource({ fetch }),
  config: { baseUrl: 'http://sandbox.test/sandbox/rail' },
  fixtures: fixtures('rail/sandbox', payloads('rail/sandbox'), (p) => {
    const payload = p as { container_number: string; railroad_scac: string };
    return { numberType: 'container', number: payload.container_number, scac: payload.railroad_scac };
  }),
});

describeSourceContract('ais:sandbox', {
  source: (fetch) => aisSandboxSource({ fetch }),
  config: { baseUrl: 'http://sandbox.test/sandbox/ais' },
  fixtures: fixtures('ais/sandbox', payloads('ais/sandbox'), (p) => ({ numberType: 'vessel_imo', number: (p as { imo: string }).imo })),
});
