import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ConfigError, listeningAt, loadConfig } from './index.js';

describe('loadConfig', () => {
  it('needs no settings', () => {
    const c = loadConfig({}, {}, '/srv');
    expect(c.port).toBe(8080);
    expect(c.host).toBe('127.0.0.1');
    expect(c.publicUrl).toBe('http://127.0.0.1:8080');
    expect(c.roles).toEqual(['api', 'worker', 'sandbox']);
    expect(c.dataDir).toBe('/srv/data');
    expect(c.databaseUrl).toBeUndefined();
    expect(c.defaultPlan).toBe('free');
    expect(c.signup).toBe(true);
    expect(c.sandbox.enabled).toBe(true);
    expect(c.webhooks).toEqual({
      allowPrivate: false,
      retryScheduleMs: null,
      timeoutMs: 15_000,
      disableAfterMs: 5 * 86_400_000,
      referenceHeader: false,
      egressIps: [],
    });
    expect(c.secretKey).toBeNull();
    expect(c.mcp.allowedHosts).toEqual(['127.0.0.1:8080']);
    expect(c.ais).toEqual({ nmeaUrl: null });
    expect(c.documentCacheMb).toBe(64);
    expect(loadConfig({ TIDEMARK_DOCUMENT_CACHE_MB: '0' }).documentCacheMb).toBe(0);
  });

  it.each([
    ['tcp://ais.example.net:5631', 'tcp://ais.example.net:5631'],
    [' udp://0.0.0.0:10110/ ', 'udp://0.0.0.0:10110'],
    ['tcp://[2001:db8::7]:10110', 'tcp://[2001:db8::7]:10110'],
  ])('reads the AIS stream address %o', (value, url) => {
    expect(loadConfig({ TIDEMARK_AIS_NMEA_URL: value }).ais.nmeaUrl).toBe(url);
  });

  it('reads values and lets command-line flags win', () => {
    const c = loadConfig(
      {
        PORT: '9000',
        TIDEMARK_ROLES: 'api, worker',
        TIDEMARK_PUBLIC_URL: 'https://track.example.com/',
        TIDEMARK_DEFAULT_PLAN: 'unlimited',
        TIDEMARK_SIGNUP: 'off',
        TIDEMARK_WEBHOOKS_RETRY_SCHEDULE: '10s,1m,1h',
        TIDEMARK_WEBHOOKS_EGRESS_IPS: '203.0.113.5,2001:db8::/32',
        TIDEMARK_CARRIER_MAEU_URL: 'https://api.maersk.example/dcsa',
        TIDEMARK_CARRIER_MAEU_AUTH: 'secret',
        TIDEMARK_CARRIER_MAEU_VERSION: '3.0',
        TIDEMARK_CARRIER_MAEU_AN_URL: 'https://api.maersk.example/dcsa/an/v1',
        TIDEMARK_CARRIER_MAEU_RATE_LIMIT: '120',
        DATABASE_URL: 'postgres://u@db/tidemark',
      },
      { port: 9100, roles: 'worker' },
      '/srv',
    );
    expect(c.port).toBe(9100);
    expect(c.roles).toEqual(['worker']);
    expect(c.publicUrl).toBe('https://track.example.com');
    expect(c.defaultPlan).toBe('unlimited');
    expect(c.signup).toBe(false);
    expect(c.webhooks.retryScheduleMs).toEqual([10_000, 60_000, 3_600_000]);
    expect(c.webhooks.egressIps).toEqual(['203.0.113.5', '2001:db8::/32']);
    expect(c.carriers.MAEU).toEqual({
      url: 'https://api.maersk.example/dcsa',
      auth: 'secret',
      version: '3.0',
      arrivalNoticeUrl: 'https://api.maersk.example/dcsa/an/v1',
      rateLimitPerMinute: 120,
    });
    expect(c.databaseUrl).toBe('postgres://u@db/tidemark');
  });

  it.each([
    [{ TIDEMARK_PORTT: '1' }, 'TIDEMARK_PORTT: unknown variable'],
    [{ PORT: 'eighty' }, 'PORT:'],
    [{ TIDEMARK_ROLES: 'api,cook' }, 'TIDEMARK_ROLES:'],
    [{ TIDEMARK_DEFAULT_PLAN: 'gold' }, 'TIDEMARK_DEFAULT_PLAN:'],
    [{ TIDEMARK_SANDBOX: 'maybe' }, 'TIDEMARK_SANDBOX:'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL:'],
    [{ TIDEMARK_WEBHOOKS_DISABLE_AFTER: '5 days' }, 'TIDEMARK_WEBHOOKS_DISABLE_AFTER:'],
    [{ TIDEMARK_CARRIER_MAEU_URL: 'not a url' }, 'TIDEMARK_CARRIER_MAEU_URL:'],
    [{ TIDEMARK_CARRIER_MAEU_VERSION: '2.1' }, 'TIDEMARK_CARRIER_MAEU_VERSION:'],
    [{ TIDEMARK_CARRIER_MAEU_AN_URL: 'ftp://x.example' }, 'TIDEMARK_CARRIER_MAEU_AN_URL:'],
    [{ TIDEMARK_CARRIER_MAEU_RATE_LIMIT: '0' }, 'TIDEMARK_CARRIER_MAEU_RATE_LIMIT:'],
    [{ TIDEMARK_CARRIER_MAEU_RATE_LIMIT: '1.5' }, 'TIDEMARK_CARRIER_MAEU_RATE_LIMIT:'],
    [{ TIDEMARK_ADMIN_TOKEN: 'short' }, 'TIDEMARK_ADMIN_TOKEN:'],
    [{ TIDEMARK_WEBHOOKS_ALLOW_PRIVATE: 'yes' }, 'TIDEMARK_WEBHOOKS_ALLOW_PRIVATE:'],
    [{ TIDEMARK_WEBHOOKS_REFERENCE_HEADER: 'maybe' }, 'TIDEMARK_WEBHOOKS_REFERENCE_HEADER:'],
    [{ TIDEMARK_WEBHOOKS_RETRY_SCHEDULE: '5s,1x' }, 'TIDEMARK_WEBHOOKS_RETRY_SCHEDULE: entry 2 of the retry schedule'],
    [{ TIDEMARK_WEBHOOKS_RETRY_SCHEDULE: '5s,,1m' }, 'TIDEMARK_WEBHOOKS_RETRY_SCHEDULE: entry 2 of the retry schedule is empty'],
    [{ TIDEMARK_WEBHOOKS_RETRY_SCHEDULE: Array(51).fill('1s').join(',') }, 'TIDEMARK_WEBHOOKS_RETRY_SCHEDULE: the retry schedule has 51'],
    [{ TIDEMARK_WEBHOOKS_TIMEOUT_MS: '15s' }, 'TIDEMARK_WEBHOOKS_TIMEOUT_MS:'],
    [{ TIDEMARK_DOCUMENT_CACHE_MB: '-1' }, 'TIDEMARK_DOCUMENT_CACHE_MB:'],
    [{ TIDEMARK_DOCUMENT_CACHE_MB: '64MB' }, 'TIDEMARK_DOCUMENT_CACHE_MB:'],
    [{ TIDEMARK_WEBHOOKS_TIMEOUT_MS: '10' }, 'TIDEMARK_WEBHOOKS_TIMEOUT_MS:'],
    [{ TIDEMARK_WEBHOOKS_DISABLE_AFTER: '5 days' }, 'TIDEMARK_WEBHOOKS_DISABLE_AFTER: "5 days" is not a duration'],
    [{ TIDEMARK_WEBHOOKS_DISABLE_AFTER: '0s' }, 'TIDEMARK_WEBHOOKS_DISABLE_AFTER: at least 1m'],
    [{ TIDEMARK_WEBHOOKS_EGRESS_IPS: '203.0.113.5,not-an-ip' }, 'TIDEMARK_WEBHOOKS_EGRESS_IPS:'],
    [{ TIDEMARK_WEBHOOKS_EGRESS_IPS: '203.0.113.256' }, 'TIDEMARK_WEBHOOKS_EGRESS_IPS:'],
    [{ TIDEMARK_SECRET_KEY: 'dG9vIHNob3J0' }, 'TIDEMARK_SECRET_KEY: must be 32 random bytes in base64'],
    [
      { TIDEMARK_AIS_NMEA_URL: 'ais.example.net:5631' },
      'TIDEMARK_AIS_NMEA_URL: "ais.example.net:5631" is not a stream address: write tcp://',
    ],
    [
      { TIDEMARK_AIS_NMEA_URL: 'http://ais.example.net/feed' },
      'TIDEMARK_AIS_NMEA_URL: "http://ais.example.net/feed" is not a stream address',
    ],
    [{ TIDEMARK_AIS_NMEA_URL: 'tcp://ais.example.net:70000' }, 'TIDEMARK_AIS_NMEA_URL: "tcp://ais.example.net:70000" has no usable port'],
    [{ TIDEMARK_AIS_NMEA_URL: 'udp://0.0.0.0:0' }, 'TIDEMARK_AIS_NMEA_URL: name the port'],
  ])('refuses %o naming the variable', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('reads the webhook settings', () => {
    const key = randomBytes(32);
    const c = loadConfig({
      TIDEMARK_WEBHOOKS_ALLOW_PRIVATE: '1',
      TIDEMARK_WEBHOOKS_RETRY_SCHEDULE: '5s, 1m,5m,30m,2h,1d',
      TIDEMARK_WEBHOOKS_TIMEOUT_MS: '2500',
      TIDEMARK_WEBHOOKS_DISABLE_AFTER: '36h',
      TIDEMARK_WEBHOOKS_REFERENCE_HEADER: 'on',
      TIDEMARK_WEBHOOKS_EGRESS_IPS: ' 35.222.62.171 , 2600:1f18::1 ',
      TIDEMARK_SECRET_KEY: key.toString('base64'),
    });
    expect(c.webhooks).toEqual({
      allowPrivate: true,
      retryScheduleMs: [5_000, 60_000, 300_000, 1_800_000, 7_200_000, 86_400_000],
      timeoutMs: 2_500,
      disableAfterMs: 36 * 3_600_000,
      referenceHeader: true,
      egressIps: ['35.222.62.171', '2600:1f18::1'],
    });
    expect(c.secretKey?.equals(key)).toBe(true);
    expect(loadConfig({ TIDEMARK_SECRET_KEY: key.toString('base64url') }).secretKey?.equals(key)).toBe(true);
  });

  it('never repeats a secret in its error', () => {
    const bad = randomBytes(31).toString('base64');
    expect(() => loadConfig({ TIDEMARK_SECRET_KEY: bad })).toThrow('value not shown');
    try {
      loadConfig({ TIDEMARK_SECRET_KEY: bad, TIDEMARK_ADMIN_TOKEN: 'short-token' });
    } catch (err) {
      expect((err as ConfigError).message).not.toContain(bad);
      expect((err as ConfigError).message).not.toContain('short-token');
    }
  });

  it('reads the stop timeout: 10 s unless set, a duration between 1 s and 10 m', () => {
    expect(loadConfig({}).stopTimeoutMs).toBe(10_000);
    expect(loadConfig({ TIDEMARK_STOP_TIMEOUT: '30s' }).stopTimeoutMs).toBe(30_000);
    expect(loadConfig({ TIDEMARK_STOP_TIMEOUT: '2500ms' }).stopTimeoutMs).toBe(2_500);
    expect(() => loadConfig({ TIDEMARK_STOP_TIMEOUT: '500ms' })).toThrow('TIDEMARK_STOP_TIMEOUT: at least 1s');
    expect(() => loadConfig({ TIDEMARK_STOP_TIMEOUT: '1h' })).toThrow('TIDEMARK_STOP_TIMEOUT: at most 10m');
    expect(() => loadConfig({ TIDEMARK_STOP_TIMEOUT: '10' })).toThrow('TIDEMARK_STOP_TIMEOUT: "10" is not a duration');
  });

  it('reads the sign-up and sign-in limits and the trusted proxies', () => {
    const d = loadConfig({});
    expect(d.authLimits).toEqual({ signupPerAddressPerHour: 5, signupPerHour: 100, signinFailuresPerAccountPerHour: 20 });
    expect(d.trustedProxies).toEqual([]);
    const c = loadConfig({
      TIDEMARK_SIGNUP_LIMIT_PER_ADDRESS: '2',
      TIDEMARK_SIGNUP_LIMIT_TOTAL: '30',
      TIDEMARK_SIGNIN_ACCOUNT_FAILURES: '50',
      TIDEMARK_TRUSTED_PROXIES: '10.0.0.0/8, 192.0.2.7,fd00::/8, ::1, loopback',
    });
    expect(c.authLimits).toEqual({ signupPerAddressPerHour: 2, signupPerHour: 30, signinFailuresPerAccountPerHour: 50 });
    expect(c.trustedProxies).toEqual(['10.0.0.0/8', '192.0.2.7', 'fd00::/8', '::1', 'loopback']);
    expect(() => loadConfig({ TIDEMARK_TRUSTED_PROXIES: '10.0.0.0/8,proxy.example.com' })).toThrow(/TIDEMARK_TRUSTED_PROXIES/);
    expect(() => loadConfig({ TIDEMARK_SIGNUP_LIMIT_PER_ADDRESS: '0' })).toThrow(/TIDEMARK_SIGNUP_LIMIT_PER_ADDRESS/);
    expect(() => loadConfig({ TIDEMARK_SIGNUP_LIMIT_TOTAL: 'many' })).toThrow(/TIDEMARK_SIGNUP_LIMIT_TOTAL/);
  });

  it('takes the CORS origins as origins only (none by default), in their normal form', () => {
    expect(loadConfig({}).corsOrigins).toEqual([]);
    expect(loadConfig({ TIDEMARK_CORS_ORIGINS: 'https://App.Example.com, http://localhost:3000' }).corsOrigins).toEqual([
      'https://app.example.com',
      'http://localhost:3000',
    ]);
    for (const bad of ['app.example.com', 'https://app.example.com/path', '*', 'ftp://x.example']) {
      expect(() => loadConfig({ TIDEMARK_CORS_ORIGINS: bad }), bad).toThrow(/TIDEMARK_CORS_ORIGINS/);
    }
  });

  it('reads the secret key settings: the key file of a data directory, the old key of a re-seal, the test crash point', () => {
    const c = loadConfig({ TIDEMARK_DATA_DIR: '/var/lib/tidemark' });
    expect(c.secretKeyFile).toBe('/var/lib/tidemark/secret-key');
    expect(c.oldSecretKey).toBeNull();
    expect(c.testCrashAt).toBeNull();
    expect(loadConfig({ DATABASE_URL: 'postgres://db/tidemark' }).secretKeyFile).toBeNull();
    const old = randomBytes(32);
    expect(loadConfig({ TIDEMARK_OLD_SECRET_KEY: old.toString('base64') }).oldSecretKey?.equals(old)).toBe(true);
    const bad = randomBytes(31).toString('base64');
    expect(() => loadConfig({ TIDEMARK_OLD_SECRET_KEY: bad })).toThrow(/TIDEMARK_OLD_SECRET_KEY.*value not shown/);
    expect(loadConfig({ TIDEMARK_TEST_CRASH_AT: 'first-start-commit' }).testCrashAt).toBe('first-start-commit');
    expect(() => loadConfig({ TIDEMARK_TEST_CRASH_AT: 'sometime' })).toThrow('TIDEMARK_TEST_CRASH_AT');
  });

  it('reports every problem at once', () => {
    try {
      loadConfig({ PORT: 'x', TIDEMARK_NOPE: '1' });
      expect.unreachable();
    } catch (err) {
      expect((err as ConfigError).problems).toHaveLength(2);
    }
  });
});

describe('a configuration is final before the services are made from it', () => {
  it('is frozen, its nested settings too', () => {
    const c = loadConfig({ TIDEMARK_CARRIER_MAEU_URL: 'https://dcsa.example/v2', TIDEMARK_SECRET_KEY: randomBytes(32).toString('base64') });
    expect(Object.isFrozen(c)).toBe(true);
    expect(Object.isFrozen(c.sandbox)).toBe(true);
    expect(Object.isFrozen(c.carriers.MAEU)).toBe(true);
    expect(Object.isFrozen(c.webhooks.egressIps)).toBe(true);
    expect(Object.isFrozen(c.roles)).toBe(true);
    expect(() => {
      (c as { publicUrl: string }).publicUrl = 'http://elsewhere';
    }).toThrow(TypeError);
  });

  it('names the port a PORT=0 listen bound, unless TIDEMARK_PUBLIC_URL is set', () => {
    const derived = loadConfig({ PORT: '0' });
    expect(derived.publicUrl).toBe('http://127.0.0.1:0');
    const bound = listeningAt(derived, 'http://127.0.0.1:41234');
    expect(bound.publicUrl).toBe('http://127.0.0.1:41234');
    expect(Object.isFrozen(bound)).toBe(true);
    expect(derived.publicUrl).toBe('http://127.0.0.1:0');
    const configured = loadConfig({ PORT: '0', TIDEMARK_PUBLIC_URL: 'https://track.example' });
    expect(listeningAt(configured, 'http://127.0.0.1:41234').publicUrl).toBe('https://track.example');
  });
});
