import { describe, expect, it } from 'vitest';
import { CARRIERS, TERMINALS, terminalNaturalKey } from '../../sources/reference/index.js';
import { carrierAnswer, terminalAnswer } from './answers.js';
import { CARRIER_GAPS, carrierProfile, isSandboxScac, PARTIAL_EQUIPMENT_TYPES, SANDBOX_SCACS, terminalProfile } from './profiles.js';
import { type Story, tellStory } from './story.js';
import { DAY } from './time.js';

const ANCHOR = new Date('2026-07-01T00:00:00Z');

function storiesFor(scac: string, n = 6): Story[] {
  return Array.from({ length: n }, (_, i) =>
    tellStory({ seed: 'profile-seed', scac, numberType: 'booking_number', number: `PRF${scac}${i}00`, anchorAt: ANCHOR }),
  );
}

describe('carrier profiles', () => {
  it('covers the 38 carriers and TEST', () => {
    expect(SANDBOX_SCACS.length).toBe(39);
    for (const c of CARRIERS) {
      expect(isSandboxScac(c.scac)).toBe(true);
      expect(CARRIER_GAPS[c.scac], c.scac).toBeDefined();
    }
    expect(isSandboxScac('test')).toBe(true);
    expect(isSandboxScac('XXXX')).toBe(false);
  });

  it.each(SANDBOX_SCACS.map((s) => [s] as const))('%s: the answers show exactly the gaps its provided_data declares', (scac) => {
    const p = carrierProfile(scac);
    const d = p.providedData;
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the URL template's placeholder, literally
    expect(p.trackingUrl).toContain('${BLNUM}');
    expect(p.trackingUrl).toMatch(/^https:\/\//);
    expect(p.contactUrl).toMatch(/^https:\/\//);
    expect(d.equipment_length).toBe(d.equipment_type);
    for (const s of storiesFor(scac)) {
      const a = carrierAnswer(s, new Date(ANCHOR.getTime() + 120 * DAY));
      if (a.status !== 'ok') throw new Error(a.status);
      const { containers, milestones, yard } = a.facts;
      for (const c of containers) {
        expect(c.sealNumber === null).toBe(!d.seal_number);
        expect(c.weightLbs === null).toBe(!d.weight_in_lbs);
        // An average of one container is its own weight: flagged only with two or more.
        expect(c.weightIsShipmentAverage).toBe(d.weight_in_lbs_notes !== undefined && containers.length >= 2);
        if (!d.equipment_type) expect(c.isoSizeType).toBeNull();
        else if (d.equipment_type_notes) {
          const raw = s.equipment.find((e) => e.number === c.number)!.isoSizeType;
          expect(c.isoSizeType).toBe(PARTIAL_EQUIPMENT_TYPES.includes(raw) ? raw : null);
        } else expect(c.isoSizeType).not.toBeNull();
      }
      if (d.weight_in_lbs_notes) expect(new Set(containers.map((c) => c.weightLbs)).size).toBe(1);
      expect(milestones.some((m) => m.milestone === 'vessel_arrived')).toBe(d.pod_arrived_at);
      expect(milestones.some((m) => m.milestone === 'vessel_discharged')).toBe(d.pod_discharged_at);
      expect(milestones.some((m) => m.milestone === 'empty_in')).toBe(d.empty_terminated_at);
      const podOut = milestones.some((m) => m.milestone === 'full_out' && m.place?.locode === s.pod!.locode);
      const inlandOut = milestones.some((m) => m.milestone === 'full_out' && m.place?.locode !== s.pod!.locode);
      if (s.rail) expect(inlandOut).toBe(d.final_destination_full_out_at);
      else expect(podOut).toBe(d.pod_full_out_at);
      for (const m of milestones) {
        if (p.dateOnly) expect(m.when).toEqual({ at: null, localDateTime: null, localDate: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) });
        else expect(m.when.at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
      }
      const truckBoxes = s.yards.filter((y) => y.railLoadedAt === null).length;
      expect(yard.length).toBe(d.ssl_lfd ? truckBoxes : 0);
      for (const y of yard) {
        expect(y.lineLastFreeDay?.localDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
        expect([y.available, y.holds, y.fees, y.lastFreeDay, y.appointmentAt, y.yardLocation, y.chassisNumber]).toEqual([
          null,
          null,
          null,
          null,
          null,
          null,
          null,
        ]);
      }
    }
  });

  it('has a documented carrier for each gap', () => {
    const all = Object.values(CARRIER_GAPS).flat();
    for (const gap of ['noseal', 'noweight', 'avgweight', 'noequip', 'partequip', 'novessel', 'dateonly', 'lfd'] as const)
      expect(all).toContain(gap);
    expect(carrierProfile('ACLU').weight).toBe('shipment_average');
  });
});

describe('terminal profiles', () => {
  it('are fixed per terminal and found by FIRMS code or LOCODE:SMDG key', () => {
    const t = TERMINALS.find((x) => x.firmsCode === 'Y258')!;
    expect(terminalProfile('Y258')).toBe(terminalProfile(terminalNaturalKey(t)));
    expect(terminalProfile('CAVAN:DLT').terminal?.name).toBe('GCT Deltaport');
    expect(terminalProfile('DLT').key).toBe('CAVAN:DLT');
  });

  it('vary across terminals: some give no fees, some no location, some a total line', () => {
    const profiles = TERMINALS.filter((t) => t.firmsCode || t.smdgCode).map((t) => terminalProfile(terminalNaturalKey(t)));
    for (const field of ['fees', 'location', 'chassis', 'appointment', 'feeTotalLine'] as const) {
      expect(profiles.some((p) => p[field])).toBe(true);
      expect(profiles.some((p) => !p[field])).toBe(true);
    }
    for (const p of profiles) {
      expect(p.providedData.fees_at_pod_terminal).toBe(p.fees);
      expect(p.providedData.location_at_pod_terminal).toBe(p.location);
      expect(p.providedData.fees_at_pod_terminal_notes !== undefined).toBe(p.feeTotalLine);
    }
  });

  it('terminal answers leave out what the terminal does not provide', () => {
    const stories = Array.from({ length: 60 }, (_, i) =>
      tellStory({ seed: 'tp', scac: 'ONEY', numberType: 'bill_of_lading', number: `ONEY77${i}000`, anchorAt: ANCHOR }),
    );
    let checked = 0;
    for (const s of stories) {
      for (const y of s.yards) {
        const p = terminalProfile(s.podTerminals[0]!.key);
        for (const offset of [y.dischargedAt + DAY, y.fullOutAt ? y.fullOutAt + 1 : y.dischargedAt + 2 * DAY]) {
          const a = terminalAnswer(s, y.container, new Date(offset));
          if (a.status !== 'ok') continue;
          checked++;
          if (!p.fees) expect(a.yard.fees).toBeNull();
          else expect(Array.isArray(a.yard.fees)).toBe(true);
          if (!p.holds) expect(a.yard.holds).toBeNull();
          if (!p.location) expect(a.yard.yardLocation).toBeNull();
          if (!p.lfd) expect(a.yard.lastFreeDay).toBeNull();
          if (!p.available) expect(a.yard.available).toBeNull();
          if (!p.chassis) expect(a.yard.chassisNumber).toBeNull();
          if (!p.appointment) expect(a.yard.appointmentAt).toBeNull();
          if (!p.fullOut) expect(a.milestones.some((m) => m.milestone === 'full_out')).toBe(false);
          if (!p.feeTotalLine) expect(a.yard.fees?.some((f) => f.type === 'total') ?? false).toBe(false);
          expect(a.yard.facility.facilityCode).toBe(s.podTerminalFirms[0]);
          // Its own moves of the box, and its vessel visit (arrival, berthing) told of the box.
          for (const m of a.milestones) {
            expect(['vessel_arrived', 'vessel_berthed', 'vessel_discharged', 'full_out', 'empty_in']).toContain(m.milestone);
            expect(m.containerNumber).toBe(y.container);
          }
        }
      }
    }
    expect(checked).toBeGreaterThan(50);
  });
});
