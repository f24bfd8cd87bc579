import { describe, expect, it } from 'vitest';
import { aisAnswer } from './ais.js';
import { fleet, rotation } from './network.js';
import { HOUR } from './time.js';

const W = new Date('2026-04-01T12:00:00Z');

describe('aisAnswer', () => {
  const v = fleet('ais-seed')[3]!;

  it('gives hourly positions for the last 24 hours by default, the last at the world time', () => {
    const a = aisAnswer('ais-seed', v.imo, W);
    if (a.status !== 'ok') throw new Error('not found');
    expect(a.mmsi).toBe(v.mmsi);
    expect(a.name).toBe(v.name);
    expect(a.positions.length).toBe(25);
    expect(a.positions.at(-1)!.at).toBe('2026-04-01T12:00:00Z');
    for (let i = 1; i < a.positions.length; i++) expect(Date.parse(a.positions[i]!.at) - Date.parse(a.positions[i - 1]!.at)).toBe(HOUR);
    for (const p of a.positions) {
      expect(Math.abs(p.latitude)).toBeLessThanOrEqual(90);
      expect(Math.abs(p.longitude)).toBeLessThanOrEqual(180);
      expect(p.headingDegrees).toBeGreaterThanOrEqual(0);
      expect(p.headingDegrees).toBeLessThan(360);
      expect(p.speedKnots).toBeGreaterThanOrEqual(0);
      expect(p.speedKnots).toBeLessThan(25);
    }
  });

  it('honours a window and never goes past the world time', () => {
    const a = aisAnswer('ais-seed', v.imo, W, { from: new Date(W.getTime() - 6 * HOUR), to: new Date(W.getTime() + 48 * HOUR) });
    expect(a.status === 'ok' && a.positions.map((p) => p.at)).toEqual(
      Array.from({ length: 7 }, (_, i) => new Date(W.getTime() - (6 - i) * HOUR).toISOString().replace('.000Z', 'Z')),
    );
  });

  it('shows speed 0 at the port during a call, and moves between calls', () => {
    const r = rotation('ais-seed', v.imo, 320);
    const call = r.calls[1]!;
    const inPort = aisAnswer('ais-seed', v.imo, new Date(call.arrive + 2 * HOUR));
    const p = inPort.status === 'ok' ? inPort.positions.at(-1)! : null;
    expect(p?.speedKnots).toBe(0);
    const atSea = aisAnswer('ais-seed', v.imo, new Date(call.depart + 6 * HOUR));
    if (atSea.status !== 'ok') throw new Error('not found');
    expect(atSea.positions.at(-1)!.speedKnots).toBeGreaterThan(10);
    expect(atSea.positions.at(-1)).not.toEqual(atSea.positions.at(-2));
  });

  it('is deterministic and does not know vessels outside the fleet', () => {
    expect(aisAnswer('ais-seed', v.imo, W)).toEqual(aisAnswer('ais-seed', v.imo, W));
    expect(aisAnswer('ais-seed', '9999999', W)).toEqual({ status: 'not_found' });
  });

  it('reports the call it lies at, then the next call of its rotation once it leaves (AIS voyage data)', () => {
    const r = rotation('ais-seed', v.imo, 320);
    for (let i = 0; i < r.calls.length; i++) {
      const call = r.calls[i]!;
      const next = r.calls[i + 1]?.locode ?? r.calls[0]!.locode;
      const at = (t: number) => {
        const a = aisAnswer('ais-seed', v.imo, new Date(t), { from: new Date(t), to: new Date(t) });
        return a.status === 'ok' ? a.positions[0]!.destination : 'not found';
      };
      expect(at(call.arrive + HOUR)).toBe(call.locode);
      expect(at(call.depart - HOUR)).toBe(call.locode);
      expect(at(call.depart + HOUR)).toBe(next);
    }
  });
});
