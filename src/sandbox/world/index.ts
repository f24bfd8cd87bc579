// The sandbox world: a deterministic simulation of carriers, terminals, railroads and AIS. Everything here is
// a pure function of (seed, carrier, number, anchor, world time); see README.md for how it works.
import type { NumberType } from '../../sources/contract.js';

export { aisAnswer } from './ais.js';
export { carrierAnswer, nextChangeAt, railAnswer, terminalAnswer, terminalAnswerAt } from './answers.js';
export { isValidImo } from '../../domain/imo.js';
export { fleet, type SandboxVessel, SERVICES, vesselStateAt, warmWorld } from './network.js';
export {
  type CarrierProfile,
  type CarrierProvidedData,
  carrierProfile,
  isSandboxScac,
  SANDBOX_SCACS,
  type TerminalProfile,
  type TerminalProvidedData,
  terminalProfile,
} from './profiles.js';
export { type ExpectedOutcome, type SandboxExample, SCENARIO_NAMES, type ScenarioName, sandboxExamples } from './scenarios.js';
export { type Story, type StoryKey, tellStory } from './story.js';
export type { NumberType };
