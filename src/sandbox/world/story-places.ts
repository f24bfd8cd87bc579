import { portByLocode, RAIL_HUBS, RAILROADS, type RailHub, rampName } from '../../sources/reference/index.js';
import { resolveTerminal } from './profiles.js';
import { profileOfTerminal } from './routing.js';

import type { Story, StoryPlace } from './story-types.js';

// -------------------------------------------------------------------------------------------- places

export const profileOf = profileOfTerminal;

export function portPlace(locode: string): StoryPlace {
  const p = portByLocode(locode);
  if (!p) throw new Error(`sandbox: unknown port ${locode}`);
  return { locode: p.locode, name: p.name, facilityCode: null, facilityCodeList: null, timeZone: p.timeZone };
}

export function hubOf(locode: string): RailHub {
  const hub = RAIL_HUB_BY_LOCODE.get(locode);
  if (!hub) throw new Error(`sandbox: unknown rail hub ${locode}`);
  return hub;
}

export const RAIL_HUB_BY_LOCODE = new Map(RAIL_HUBS.map((h) => [h.locode, h]));

/** The railroad's ramp at the hub (`BNSF Logistics Park Chicago`); `railroad` is its short name or id. */
export function railPlace(hub: RailHub, railroad: string): StoryPlace {
  const r = RAILROADS.find((x) => x.shortName === railroad || x.id === railroad);
  return {
    locode: hub.locode,
    name: (r && rampName(r.id, hub.locode)) ?? `${railroad} ${hub.name} intermodal terminal`,
    facilityCode: null,
    facilityCodeList: null,
    timeZone: hub.timeZone,
  };
}

/** The POD terminal as a carrier names it: by SMDG code when it has one (DCSA knows no FIRMS codes). */
export function terminalCarrierPlace(key: string): StoryPlace {
  const t = resolveTerminal(key)!;
  return {
    locode: t.portLocode,
    name: t.name,
    // DCSA carriers name terminals by SMDG (or BIC) code, never FIRMS: without an SMDG code, by port and name only.
    facilityCode: t.smdgCode ?? null,
    facilityCodeList: t.smdgCode ? 'smdg' : null,
    timeZone: t.timezone,
  };
}

/** The POD terminal as its own records name it: FIRMS code, else SMDG. */
export function terminalYardPlace(key: string): StoryPlace {
  const t = resolveTerminal(key)!;
  return {
    locode: t.portLocode,
    name: t.name,
    facilityCode: t.firmsCode ?? t.smdgCode,
    facilityCodeList: t.firmsCode ? 'firms' : 'smdg',
    timeZone: t.timezone,
  };
}

export function facilityCodeOf(key: string): string {
  return terminalYardPlace(key).facilityCode!;
}

/** The POD terminal (natural key) assigned at t. */
export function podTerminalAt(story: Story, t: number): string | null {
  let key: string | null = null;
  for (const p of story.podTerminals) if (t >= p.from) key = p.key;
  return key ?? story.podTerminals[0]?.key ?? null;
}
