// A story: everything the world will ever say about one tracked number, computed once from its key. The
// answers at a world time only classify and filter it (happened → actual, expected → estimated or planned).
import { checkContainerNumber, normalizeContainerNumber } from '../../domain/container-number.js';
import type { NumberType } from '../../sources/contract.js';
import { documentedScenario, type ScenarioName } from './scenarios.js';
import { DAY } from './time.js';

import type { Story, StoryKey } from './story-types.js';
import { JourneyBuilder } from './journey.js';

export * from './story-types.js';
export { podTerminalAt, portPlace, terminalCarrierPlace, terminalYardPlace } from './story-places.js';

// -------------------------------------------------------------------------------------------- validity

const NO_JOURNEY: ReadonlySet<ScenarioName> = new Set([
  'expired',
  'retries_exhausted',
  'not_found',
  'invalid_number',
  'booking_cancelled',
  'scac_auto_detect_failed',
  'test_failed',
]);

/** Whether a simulated carrier accepts the number's shape. */
export function wellFormed(numberType: NumberType, number: string): boolean {
  if (numberType === 'container') return checkContainerNumber(number).valid || /^[A-Z]{3}[UJZ]\d{7}$/.test(number);
  return /^[A-Z0-9]{6,20}$/.test(number);
}

function normalizeNumber(numberType: NumberType, number: string): string {
  return numberType === 'container' ? normalizeContainerNumber(number.trim()) : number.trim().toUpperCase();
}

// ------------------------------------------------------------------------------------------------ cache

const STORIES = new Map<string, Story>();

/** The story of a number: deterministic in its key, cheap after the first route computations. */
export function tellStory(key: StoryKey): Story {
  const cacheKey = `${key.seed}|${key.scac}|${key.numberType}|${key.number}|${key.anchorAt.getTime()}`;
  const cached = STORIES.get(cacheKey);
  if (cached) return cached;
  const story = buildStory(key);
  if (STORIES.size > 5000) STORIES.clear();
  STORIES.set(cacheKey, story);
  return story;
}

/** tellStory without the cache (tests use it to prove determinism). */
export function buildStory(key: StoryKey): Story {
  const scac = key.scac.trim().toUpperCase();
  const number = normalizeNumber(key.numberType, key.number);
  const anchorMs = key.anchorAt.getTime();
  let scenario: ScenarioName = documentedScenario(number) ?? 'ordinary';
  if (scenario === 'ordinary' && !wellFormed(key.numberType, number)) scenario = 'invalid_number';
  const story: Story = {
    key,
    scenario,
    number,
    carrierScac: scac,
    billOfLading: key.numberType === 'bill_of_lading' ? number : null,
    bookingNumber: key.numberType === 'booking_number' ? number : null,
    containers: [],
    vesselImos: [],
    podTerminalFirms: [],
    railCarrierScac: null,
    anchorMs,
    bookedAt: anchorMs - 10 * DAY,
    pol: null,
    pod: null,
    destination: null,
    podTerminals: [],
    legs: [],
    equipment: [],
    events: [],
    yards: [],
    rail: null,
    lineSilentFrom: null,
    breakpoints: [],
  };
  if (NO_JOURNEY.has(scenario)) {
    story.breakpoints = [];
    return story;
  }
  new JourneyBuilder(story, key.seed, key.numberType).build();
  return story;
}
