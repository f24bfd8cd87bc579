import { describe, expect, it } from 'vitest';
import { carrierSettingProblems } from './carrier-config.js';

describe('carrier endpoint settings', () => {
  it('accepts a known carrier with a URL and a valid auth form', () => {
    expect(carrierSettingProblems({ MAEU: { url: 'https://dcsa.example/tnt', auth: 'header:API-Key:s3cret', version: '2.2' } })).toEqual(
      [],
    );
    expect(carrierSettingProblems({ MAEU: { url: 'https://dcsa.example/tnt', arrivalNoticeUrl: 'https://dcsa.example/an/v1' } })).toEqual(
      [],
    );
    expect(carrierSettingProblems({})).toEqual([]);
  });

  it.each([
    [{ XXXX: { url: 'https://x.example' } }, 'TIDEMARK_CARRIER_XXXX_*: XXXX is not a known carrier SCAC'],
    [{ MAEU: { auth: 'none' } }, 'TIDEMARK_CARRIER_MAEU_URL: required when _AUTH, _VERSION, _AN_URL or _RATE_LIMIT is set'],
    [
      { MAEU: { arrivalNoticeUrl: 'https://x.example/an' } },
      'TIDEMARK_CARRIER_MAEU_URL: required when _AUTH, _VERSION, _AN_URL or _RATE_LIMIT is set',
    ],
    [{ MAEU: { rateLimitPerMinute: 5 } }, 'TIDEMARK_CARRIER_MAEU_URL: required when _AUTH, _VERSION, _AN_URL or _RATE_LIMIT is set'],
    [{ MAEU: { url: 'https://x.example', auth: 'magic:thing' } }, 'TIDEMARK_CARRIER_MAEU_AUTH:'],
  ])('reports %o', (settings, problem) => {
    const problems = carrierSettingProblems(settings);
    expect(problems.some((p) => p.startsWith(problem))).toBe(true);
  });

  it('never repeats the secret in a problem', () => {
    const problems = carrierSettingProblems({ MAEU: { url: 'https://x.example', auth: 'oauth2:https://t.example|id|TOPSECRET' } });
    expect(problems.join(' ')).not.toContain('TOPSECRET');
  });
});
