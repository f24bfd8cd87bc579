// Checks the per-carrier endpoint settings (TIDEMARK_CARRIER_<SCAC>_*) against the carriers we know and
// the auth forms the DCSA adapter accepts, so a typo stops the start instead of silently using the sandbox.
import { parseAuthSetting } from './carriers/dcsa/index.js';
import { carrierByScac } from './reference/index.js';

export interface CarrierEndpointSetting {
  url?: string;
  auth?: string;
  version?: '2.2' | '3.0';
  /** Root of the carrier's DCSA Arrival Notice 1.0.1 API (`TIDEMARK_CARRIER_<SCAC>_AN_URL`). */
  arrivalNoticeUrl?: string;
  /** `TIDEMARK_CARRIER_<SCAC>_RATE_LIMIT`: requests a minute. */
  rateLimitPerMinute?: number;
}

/** Problems, each naming its variable; empty when every setting is usable. Never echoes a secret. */
export function carrierSettingProblems(settings: Record<string, CarrierEndpointSetting>): string[] {
  const problems: string[] = [];
  for (const [scac, s] of Object.entries(settings)) {
    const prefix = `TIDEMARK_CARRIER_${scac}`;
    const carrier = carrierByScac(scac);
    if (!carrier) {
      problems.push(`${prefix}_*: ${scac} is not a known carrier SCAC`);
      continue;
    }
    if (carrier.scac !== scac)
      problems.push(`${prefix}_*: ${scac} is an alternative SCAC of ${carrier.scac}; use TIDEMARK_CARRIER_${carrier.scac}_*`);
    if (
      !s.url &&
      (s.auth !== undefined || s.version !== undefined || s.arrivalNoticeUrl !== undefined || s.rateLimitPerMinute !== undefined)
    ) {
      problems.push(`${prefix}_URL: required when _AUTH, _VERSION, _AN_URL or _RATE_LIMIT is set`);
    }
    if (s.auth !== undefined) {
      try {
        parseAuthSetting(s.auth);
      } catch (err) {
        problems.push(`${prefix}_AUTH: ${(err as Error).message}`);
      }
    }
  }
  return problems;
}
