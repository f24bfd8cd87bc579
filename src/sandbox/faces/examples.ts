// Hand-built world answers, one per case the faces must render: the round-trip tests and the adapters'
// fixtures are made from these, so a fixture's expected facts are the answer itself, never parser output.
import { makeContainerNumber } from '../../domain/container-number.js';
import type { CanonicalFacts, MilestoneFact, Place, VesselRef, When } from '../../sources/contract.js';
import type { AisAnswer, CarrierAnswer, RailAnswer, TerminalAnswer } from '../answers.js';

export const C1 = makeContainerNumber('MSKU', 123456);
export const C2 = makeContainerNumber('TGHU', 804211);
export const C3 = makeContainerNumber('CAIU', 550017);

const at = (v: string): When => ({ at: v, localDateTime: null, localDate: null });
const local = (v: string): When => ({ at: null, localDateTime: v, localDate: null });
const date = (v: string): When => ({ at: null, localDateTime: null, localDate: v });
const smdg = (locode: string, name: string, code: string): Place => ({ locode, name, facilityCode: code, facilityCodeList: 'smdg' });
const town = (locode: string, name: string): Place => ({ locode, name, facilityCode: null, facilityCodeList: null });
const vessel = (name: string, imo: string): VesselRef => ({ name, imo, mmsi: null });
const uuid = (n: number) => `5a9d0000-0000-4000-8000-${String(n).padStart(12, '0')}`;

function milestone(m: Partial<MilestoneFact> & Pick<MilestoneFact, 'milestone' | 'when'>): MilestoneFact {
  return {
    classifier: 'actual',
    place: null,
    vessel: null,
    voyage: null,
    mode: null,
    containerNumber: null,
    railCarrierScac: null,
    sourceCode: m.milestone,
    sourceEventId: null,
    reportedAt: null,
    ...m,
  };
}

// ---------------------------------------------------------------------------------------------------------
// Carriers (DCSA TNT 2.2)

const SHA_DEPOT = smdg('CNSHA', 'Waigaoqiao Empty Depot', 'WGQED');
const SHA = smdg('CNSHA', 'Yangshan Phase IV', 'SIPGY');
const SIN = smdg('SGSIN', 'Pasir Panjang Terminal', 'PPT');
const LAX = smdg('USLAX', 'APM Terminals Pier 400', 'APMT');
const LAX_RAMP = town('USLAX', 'BNSF Hobart Yard');
const CHI = town('USCHI', 'BNSF Logistics Park Chicago');
const V1 = vessel('Maersk Kendal', '9321483');
const V2 = vessel('Ever Given', '9811000');

/** Shanghai → Singapore (transshipment) → Los Angeles, then by rail to Chicago; estimated and planned ahead. */
export const CARRIER_TRANSSHIPMENT_RAIL: CanonicalFacts = {
  shipment: {
    billOfLadingNumber: 'TEST0412345',
    bookingNumber: 'SHA0412345',
    carrierScac: 'TEST',
    portOfLading: SHA,
    portOfDischarge: LAX,
    destination: CHI,
  },
  containers: [{ number: C1, isoSizeType: '45G1', sealNumber: 'SH2024031', weightLbs: null, weightIsShipmentAverage: false }],
  milestones: [
    milestone({
      milestone: 'empty_out',
      when: at('2026-01-02T08:00:00+08:00'),
      place: SHA_DEPOT,
      mode: 'truck',
      containerNumber: C1,
      sourceEventId: uuid(1),
      reportedAt: '2026-01-02T00:05:12Z',
    }),
    milestone({ milestone: 'vgm_received', when: at('2026-01-04T10:00:00Z'), sourceEventId: uuid(2), reportedAt: '2026-01-04T10:00:00Z' }),
    milestone({
      milestone: 'full_in',
      when: at('2026-01-04T14:30:00+08:00'),
      place: SHA,
      mode: 'truck',
      containerNumber: C1,
      sourceEventId: uuid(3),
      reportedAt: '2026-01-04T06:31:40Z',
    }),
    milestone({
      milestone: 'vessel_loaded',
      when: at('2026-01-06T03:10:00+08:00'),
      place: SHA,
      vessel: V1,
      voyage: '401E',
      mode: 'vessel',
      containerNumber: C1,
      sourceEventId: uuid(4),
      reportedAt: '2026-01-05T19:12:00Z',
    }),
    milestone({
      milestone: 'vessel_departed',
      when: at('2026-01-06T18:00:00+08:00'),
      place: SHA,
      vessel: V1,
      voyage: '401E',
      mode: 'vessel',
      sourceEventId: uuid(5),
      reportedAt: '2026-01-06T10:02:00Z',
    }),
    milestone({
      milestone: 'transshipment_arrived',
      when: at('2026-01-11T07:00:00+08:00'),
      place: SIN,
      vessel: V1,
      voyage: '401E',
      mode: 'vessel',
      sourceEventId: uuid(6),
      reportedAt: '2026-01-10T23:01:00Z',
    }),
    milestone({
      milestone: 'transshipment_discharged',
      when: at('2026-01-11T12:00:00+08:00'),
      place: SIN,
      vessel: V1,
      voyage: '401E',
      mode: 'vessel',
      containerNumber: C1,
      sourceEventId: uuid(7),
      reportedAt: '2026-01-11T04:03:00Z',
    }),
    milestone({
      milestone: 'transshipment_loaded',
      when: at('2026-01-14T09:00:00+08:00'),
      place: SIN,
      vessel: V2,
      voyage: '022E',
      mode: 'vessel',
      containerNumber: C1,
      sourceEventId: uuid(8),
      reportedAt: '2026-01-14T01:04:00Z',
    }),
    milestone({
      milestone: 'transshipment_departed',
      when: at('2026-01-14T20:00:00+08:00'),
      place: SIN,
      vessel: V2,
      voyage: '022E',
      mode: 'vessel',
      sourceEventId: uuid(9),
      reportedAt: '2026-01-14T12:05:00Z',
    }),
    milestone({
      milestone: 'customs_release',
      when: at('2026-01-30T16:00:00Z'),
      sourceEventId: uuid(10),
      reportedAt: '2026-01-30T16:00:00Z',
    }),
    milestone({
      milestone: 'vessel_arrived',
      classifier: 'estimated',
      when: at('2026-02-01T06:00:00-08:00'),
      place: LAX,
      vessel: V2,
      voyage: '022E',
      mode: 'vessel',
      sourceEventId: uuid(11),
      reportedAt: '2026-01-30T18:00:00Z',
    }),
    milestone({
      milestone: 'vessel_discharged',
      classifier: 'estimated',
      when: at('2026-02-02T10:00:00-08:00'),
      place: LAX,
      vessel: V2,
      voyage: '022E',
      mode: 'vessel',
      containerNumber: C1,
      sourceEventId: uuid(12),
      reportedAt: '2026-01-30T18:00:01Z',
    }),
    milestone({
      milestone: 'rail_loaded',
      classifier: 'planned',
      when: at('2026-02-04T08:00:00-08:00'),
      place: LAX_RAMP,
      mode: 'rail',
      containerNumber: C1,
      sourceEventId: uuid(13),
      reportedAt: '2026-01-30T18:00:02Z',
    }),
    milestone({
      milestone: 'rail_departed',
      classifier: 'planned',
      when: at('2026-02-04T20:00:00-08:00'),
      place: LAX_RAMP,
      mode: 'rail',
      sourceEventId: uuid(14),
      reportedAt: '2026-01-30T18:00:03Z',
    }),
    milestone({
      milestone: 'rail_arrived',
      classifier: 'planned',
      when: at('2026-02-08T06:00:00-06:00'),
      place: CHI,
      mode: 'rail',
      sourceEventId: uuid(15),
      reportedAt: '2026-01-30T18:00:04Z',
    }),
    milestone({
      milestone: 'rail_unloaded',
      classifier: 'planned',
      when: at('2026-02-08T12:00:00-06:00'),
      place: CHI,
      mode: 'rail',
      containerNumber: C1,
      sourceEventId: uuid(16),
      reportedAt: '2026-01-30T18:00:05Z',
    }),
  ],
  yard: [],
  vesselPositions: [],
};

const RTM = smdg('NLRTM', 'ECT Delta Terminal', 'ECTDE');
const NYC = smdg('USNYC', 'Maher Terminals', 'MAHER');
const V3 = vessel('CMA CGM Marco Polo', '9454436');

/** A carrier that gives dates only (the sandbox's date-only profile), two containers, one without size-type. */
export const CARRIER_DATE_ONLY: CanonicalFacts = {
  shipment: {
    billOfLadingNumber: 'TEST0599001',
    bookingNumber: null,
    carrierScac: 'TEST',
    portOfLading: RTM,
    portOfDischarge: NYC,
    destination: null,
  },
  containers: [
    { number: C3, isoSizeType: null, sealNumber: null, weightLbs: null, weightIsShipmentAverage: false },
    { number: C2, isoSizeType: '22G1', sealNumber: null, weightLbs: null, weightIsShipmentAverage: false },
  ],
  milestones: [
    milestone({
      milestone: 'full_in',
      when: date('2026-01-05'),
      place: RTM,
      containerNumber: C2,
      sourceEventId: uuid(21),
      reportedAt: '2026-01-05T18:00:00Z',
    }),
    milestone({
      milestone: 'full_in',
      when: date('2026-01-05'),
      place: RTM,
      containerNumber: C3,
      sourceEventId: uuid(22),
      reportedAt: '2026-01-05T18:00:00Z',
    }),
    milestone({
      milestone: 'vessel_loaded',
      when: date('2026-01-07'),
      place: RTM,
      vessel: V3,
      voyage: '0FL3W',
      mode: 'vessel',
      containerNumber: C2,
      sourceEventId: uuid(23),
      reportedAt: '2026-01-07T18:00:00Z',
    }),
    milestone({
      milestone: 'vessel_loaded',
      when: date('2026-01-07'),
      place: RTM,
      vessel: V3,
      voyage: '0FL3W',
      mode: 'vessel',
      containerNumber: C3,
      sourceEventId: uuid(24),
      reportedAt: '2026-01-07T18:00:00Z',
    }),
    milestone({
      milestone: 'vessel_departed',
      when: date('2026-01-07'),
      place: RTM,
      vessel: V3,
      voyage: '0FL3W',
      mode: 'vessel',
      sourceEventId: uuid(25),
      reportedAt: '2026-01-07T18:00:00Z',
    }),
    milestone({
      milestone: 'vessel_arrived',
      classifier: 'estimated',
      when: local('2026-01-19T08:00:00'),
      place: NYC,
      vessel: V3,
      voyage: '0FL3W',
      mode: 'vessel',
      sourceEventId: uuid(26),
      reportedAt: '2026-01-08T18:00:00Z',
    }),
  ],
  yard: [],
  vesselPositions: [],
};

export const CARRIER_ANSWERS = {
  transshipmentRail: { status: 'ok', facts: CARRIER_TRANSSHIPMENT_RAIL },
  dateOnly: { status: 'ok', facts: CARRIER_DATE_ONLY },
  awaitingManifest: { status: 'awaiting_manifest', bookingNumber: 'SHA0499999', receivedAt: '2026-02-01T09:30:00Z' },
  cancelled: { status: 'cancelled', bookingNumber: 'SHA0499998', cancelledAt: '2026-02-03T11:00:00Z' },
  notFound: { status: 'not_found' },
  invalidNumber: { status: 'invalid_number', message: 'transportDocumentReference must be 4 to 20 letters and digits' },
  unavailable: { status: 'unavailable', retryAfterSeconds: 120 },
  unavailableNoRetryAfter: { status: 'unavailable', retryAfterSeconds: null },
} satisfies Record<string, CarrierAnswer>;

// ---------------------------------------------------------------------------------------------------------
// Terminals

const PIER_400: Place = { locode: 'USLAX', name: 'APM Terminals Los Angeles (Pier 400)', facilityCode: 'W185', facilityCodeList: 'firms' };
const MAHER: Place = { locode: 'USNYC', name: 'Maher Terminals', facilityCode: 'E416', facilityCodeList: 'firms' };
const TALLEYRAND: Place = { locode: 'USJAX', name: 'Talleyrand Marine Terminal', facilityCode: 'TMT', facilityCodeList: 'smdg' };

export const TERMINAL_ANSWERS = {
  /** On hold (customs, a pending freight hold), fees with a `total` line, an LFD instant and a line LFD date. */
  holdsFees: {
    status: 'ok',
    yard: {
      containerNumber: C1,
      facility: PIER_400,
      available: false,
      holds: [
        { name: 'customs', status: 'hold', description: 'CBP exam hold' },
        { name: 'freight', status: 'pending', description: null },
        { name: 'USDA', status: 'hold', description: 'USDA inspection' },
      ],
      fees: [
        { type: 'demurrage', amount: 150, currencyCode: 'USD' },
        { type: 'exam', amount: 312.5, currencyCode: 'USD' },
        { type: 'total', amount: 462.5, currencyCode: 'USD' },
      ],
      lastFreeDay: at('2026-02-10T23:59:00-08:00'),
      lineLastFreeDay: date('2026-02-12'),
      appointmentAt: null,
      yardLocation: 'B12-03-4',
      chassisNumber: null,
    },
    milestones: [
      milestone({
        milestone: 'vessel_discharged',
        when: at('2026-02-02T10:14:00-08:00'),
        place: PIER_400,
        vessel: V2,
        voyage: '022E',
        mode: 'vessel',
        containerNumber: C1,
        sourceCode: 'Discharged from vessel',
        sourceEventId: 'APMT-77120',
        reportedAt: '2026-02-02T18:20:00Z',
      }),
    ],
  },
  /** Available with an appointment; the LFD as a local date-time in the facility's zone; out full. */
  availableLocalLfd: {
    status: 'ok',
    yard: {
      containerNumber: C2,
      facility: MAHER,
      available: true,
      holds: [],
      fees: [],
      lastFreeDay: local('2026-01-23T17:00:00'),
      lineLastFreeDay: null,
      appointmentAt: '2026-01-22T14:00:00Z',
      yardLocation: 'R07-11',
      chassisNumber: 'TRHU123456',
    },
    milestones: [
      milestone({
        milestone: 'vessel_discharged',
        when: local('2026-01-19T13:40:00'),
        place: MAHER,
        vessel: V3,
        voyage: '0FL3W',
        mode: 'vessel',
        containerNumber: C2,
        sourceCode: 'DISCHARGED_FROM_VESSEL',
      }),
      milestone({
        milestone: 'available',
        when: date('2026-01-20'),
        place: MAHER,
        containerNumber: C2,
        sourceCode: 'Available for pickup',
      }),
      milestone({
        milestone: 'full_out',
        classifier: 'planned',
        when: at('2026-01-22T14:00:00Z'),
        place: MAHER,
        mode: 'truck',
        containerNumber: C2,
        sourceCode: 'Gate out (appointment)',
      }),
    ],
  },
  /** A record the terminal has only begun: nothing reported yet (null, not empty), an SMDG-only facility. */
  flickerNull: {
    status: 'ok',
    yard: {
      containerNumber: C3,
      facility: TALLEYRAND,
      available: null,
      holds: null,
      fees: null,
      lastFreeDay: null,
      lineLastFreeDay: null,
      appointmentAt: null,
      yardLocation: null,
      chassisNumber: null,
    },
    milestones: [],
  },
  notFound: { status: 'not_found' },
} satisfies Record<string, TerminalAnswer>;

// ---------------------------------------------------------------------------------------------------------
// Railroads

const HOBART: Place = { locode: 'USLAX', name: 'BNSF Hobart Yard', facilityCode: null, facilityCodeList: null };
const LPC: Place = { locode: 'USCHI', name: 'BNSF Logistics Park Chicago', facilityCode: null, facilityCodeList: null };
const NS_47: Place = { locode: 'USCHI', name: 'NS 47th Street', facilityCode: null, facilityCodeList: null };
const RUTHERFORD: Place = { locode: 'USPHL', name: 'NS Rutherford Intermodal', facilityCode: null, facilityCodeList: null };

export const RAIL_ANSWERS = {
  /** BNSF to Chicago, interchange to NS for Harrisburg-area delivery; the NS leg planned; rail LFD as a date. */
  interchange: {
    status: 'ok',
    railCarrierScac: 'BNSF',
    milestones: [
      milestone({
        milestone: 'rail_loaded',
        when: at('2026-02-04T08:12:00-08:00'),
        place: HOBART,
        mode: 'rail',
        containerNumber: C1,
        railCarrierScac: 'BNSF',
        sourceCode: 'Loaded on train',
        sourceEventId: 'BN-1',
        reportedAt: '2026-02-04T16:20:00Z',
      }),
      milestone({
        milestone: 'rail_departed',
        when: at('2026-02-04T19:40:00-08:00'),
        place: HOBART,
        voyage: 'Z-LACLPC9-04',
        mode: 'rail',
        containerNumber: C1,
        railCarrierScac: 'BNSF',
        sourceCode: 'Departed ramp',
        sourceEventId: 'BN-2',
        reportedAt: '2026-02-05T03:45:00Z',
      }),
      milestone({
        milestone: 'rail_arrived',
        classifier: 'estimated',
        when: at('2026-02-08T06:00:00-06:00'),
        place: LPC,
        voyage: 'Z-LACLPC9-04',
        mode: 'rail',
        containerNumber: C1,
        railCarrierScac: 'BNSF',
        sourceCode: 'ETA',
        sourceEventId: 'BN-3',
        reportedAt: '2026-02-05T03:45:00Z',
      }),
      milestone({
        milestone: 'rail_departed',
        classifier: 'planned',
        when: date('2026-02-09'),
        place: NS_47,
        mode: 'rail',
        containerNumber: C1,
        railCarrierScac: 'NSRR',
        sourceCode: 'Interchange to NS',
        sourceEventId: 'BN-4',
        reportedAt: null,
      }),
    ],
    yard: {
      containerNumber: C1,
      facility: RUTHERFORD,
      available: null,
      holds: null,
      fees: [{ type: 'extended_dwell_time', amount: 0, currencyCode: 'USD' }],
      lastFreeDay: date('2026-02-13'),
      lineLastFreeDay: null,
      appointmentAt: null,
      yardLocation: null,
      chassisNumber: null,
    },
  },
  /** On the train, destination terminal not known yet. */
  noTerminalYet: {
    status: 'ok',
    railCarrierScac: 'UPRR',
    milestones: [
      milestone({
        milestone: 'rail_loaded',
        when: at('2026-03-01T10:00:00-08:00'),
        place: { locode: 'USLGB', name: 'ICTF', facilityCode: null, facilityCodeList: null },
        mode: 'rail',
        containerNumber: C2,
        railCarrierScac: 'UPRR',
        sourceCode: 'Loaded',
        sourceEventId: 'UP-9',
        reportedAt: '2026-03-01T18:00:00Z',
      }),
    ],
    yard: null,
  },
  notFound: { status: 'not_found' },
} satisfies Record<string, RailAnswer>;

// ---------------------------------------------------------------------------------------------------------
// AIS

export const AIS_ANSWERS = {
  underway: {
    status: 'ok',
    imo: '9811000',
    mmsi: '353136000',
    name: 'EVER GIVEN',
    positions: [
      {
        imo: '9811000',
        at: '2026-01-20T00:00:00Z',
        latitude: 33.6126,
        longitude: -140.2281,
        speedKnots: 17.4,
        headingDegrees: 84,
        destination: 'USLAX',
      },
      {
        imo: '9811000',
        at: '2026-01-20T06:00:00Z',
        latitude: 33.7011,
        longitude: -138.8003,
        speedKnots: 17.1,
        headingDegrees: 85,
        destination: 'US LAX',
      },
      // A transponder that gives neither speed, heading nor destination for one report.
      {
        imo: '9811000',
        at: '2026-01-20T12:00:00Z',
        latitude: 33.7902,
        longitude: -137.3719,
        speedKnots: null,
        headingDegrees: null,
        destination: null,
      },
    ],
  },
  notFound: { status: 'not_found' },
} satisfies Record<string, AisAnswer>;
