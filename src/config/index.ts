// The only reader of process.env. Every setting has a default that needs nothing set; an unknown
// TIDEMARK_* variable or an invalid value stops the start with a message naming the variable.
import { readFileSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { FEATURES, PLANS, type Feature, type Plan } from '../domain/account.js';
import { parseDuration, parseRetrySchedule } from '../lib/durations.js';
import { parseSecretKey } from '../lib/sealed.js';
import { formatStreamUrl, parseStreamUrl } from '../lib/stream-url.js';

export const ROLES = ['api', 'worker', 'sandbox'] as const;
export type Role = (typeof ROLES)[number];

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

const onOff = z.enum(['on', 'off', 'true', 'false', '1', '0']).transform((v) => v === 'on' || v === 'true' || v === '1');

const list = <T extends string>(values: readonly [T, ...T[]]) =>
  z
    .string()
    .transform((s) =>
      s
        .split(',')
        .map((x) => x.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.enum(values)));

/** A string run through one of the lib parsers; the parser's message becomes the issue. */
const parsedBy = <T>(parse: (text: string) => T) =>
  z.string().transform((s, ctx) => {
    try {
      return parse(s);
    } catch (error) {
      ctx.addIssue({ code: 'custom', message: (error as Error).message });
      return z.NEVER;
    }
  });

const duration = parsedBy(parseDuration);

const port = z.coerce.number().int().min(0).max(65535);

/** A stream address an operator can use: port 0 (any free port) makes sense only in tests. */
const streamUrl = parsedBy(parseStreamUrl)
  .refine((a) => a.port > 0, 'name the port: udp://HOST:0 would listen on a port nobody sends to')
  .transform(formatStreamUrl);

const hostList = z.string().transform((s) =>
  s
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean),
);

/**
 * Test only (`TIDEMARK_TEST_CRASH_AT`): the process kills itself (SIGKILL, no clean-up) at this point, so the tests of
 * crash windows need no timing race. `first-start-commit`: right after the first start's transaction commits;
 * `sandbox-advance-step`: right after the first step of a sandbox clock advance is recorded.
 */
export const CRASH_POINTS = ['first-start-commit', 'sandbox-advance-step'] as const;
export type CrashPoint = (typeof CRASH_POINTS)[number];

/** Each known variable with its schema; the key is the environment variable name. */
const variables = {
  PORT: port.default(8080),
  TIDEMARK_HOST: z.string().min(1).default('127.0.0.1'),
  TIDEMARK_PUBLIC_URL: z.url({ protocol: /^https?$/ }).optional(),
  TIDEMARK_ROLES: list(ROLES).default(['api', 'worker', 'sandbox']),
  TIDEMARK_DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'a postgres:// or postgresql:// URL')
    .optional(),
  TIDEMARK_ADMIN_TOKEN: z.string().min(24, 'at least 24 characters').optional(),
  TIDEMARK_DEFAULT_PLAN: z.enum(PLANS).default('free'),
  TIDEMARK_SIGNUP: onOff.default(true),
  TIDEMARK_API_TRIAL: onOff.default(true),
  TIDEMARK_SIGNUP_LIMIT_PER_ADDRESS: z.coerce.number().int().min(1).max(1_000_000).default(5),
  TIDEMARK_SIGNUP_LIMIT_TOTAL: z.coerce.number().int().min(1).max(1_000_000).default(100),
  TIDEMARK_SIGNIN_ACCOUNT_FAILURES: z.coerce.number().int().min(1).max(1_000_000).default(20),
  TIDEMARK_TRUSTED_PROXIES: hostList
    .pipe(
      z.array(
        z.union([z.ipv4(), z.ipv6(), z.cidrv4(), z.cidrv6(), z.enum(['loopback', 'linklocal', 'uniquelocal'])], {
          error: 'addresses or CIDR ranges (10.0.0.0/8), or loopback, linklocal, uniquelocal',
        }),
      ),
    )
    .default([]),
  TIDEMARK_SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\/[^\s]+$/, 'an smtp:// or smtps:// URL (smtp://user:password@host:587)')
    .optional(),
  TIDEMARK_SMTP_FROM: z.string().min(3).default('Tidemark <tidemark@localhost>'),
  TIDEMARK_SANDBOX: onOff.default(true),
  TIDEMARK_SANDBOX_SPEED: z.coerce.number().min(0).max(1_000_000).default(0),
  TIDEMARK_SANDBOX_SEED: z.string().min(1).default('tidemark'),
  TIDEMARK_SANDBOX_URL: z.url({ protocol: /^https?$/ }).optional(),
  TIDEMARK_WEBHOOKS_ALLOW_PRIVATE: onOff.default(false),
  TIDEMARK_WEBHOOKS_RETRY_SCHEDULE: parsedBy(parseRetrySchedule).optional(),
  TIDEMARK_WEBHOOKS_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(15_000),
  TIDEMARK_WEBHOOKS_DISABLE_AFTER: duration.pipe(z.number().min(60_000, 'at least 1m')).default(5 * 86_400_000),
  TIDEMARK_WEBHOOKS_REFERENCE_HEADER: onOff.default(false),
  TIDEMARK_WEBHOOKS_EGRESS_IPS: z
    .string()
    .transform((s) =>
      s
        .split(',')
        .map((x) => x.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.union([z.ipv4(), z.ipv6(), z.cidrv4(), z.cidrv6()])))
    .default([]),
  TIDEMARK_DOCUMENT_CACHE_MB: z.coerce.number().int().min(0).max(65_536).default(64),
  TIDEMARK_MCP_ALLOWED_HOSTS: hostList.optional(),
  TIDEMARK_MCP_ALLOWED_ORIGINS: hostList.optional(),
  TIDEMARK_CORS_ORIGINS: hostList
    .pipe(
      z.array(
        z.string().regex(/^https?:\/\/[^/\s?#]+$/i, {
          error: 'origins: scheme, host and port only (https://app.example.com,http://localhost:3000)',
        }),
      ),
    )
    .default([]),
  TIDEMARK_LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  TIDEMARK_SECRET_KEY: parsedBy(parseSecretKey).optional(),
  TIDEMARK_OLD_SECRET_KEY: parsedBy(parseSecretKey).optional(),
  TIDEMARK_TEST_CRASH_AT: z.enum(CRASH_POINTS).optional(),
  TIDEMARK_AIS_NMEA_URL: streamUrl.optional(),
  TIDEMARK_STOP_TIMEOUT: duration.pipe(z.number().min(1_000, 'at least 1s').max(600_000, 'at most 10m')).default(10_000),
} as const;

/** Their values never appear in a configuration error: start-up messages end up in logs. */
const SECRET_VARIABLES = new Set(['TIDEMARK_ADMIN_TOKEN', 'TIDEMARK_SECRET_KEY', 'TIDEMARK_OLD_SECRET_KEY', 'TIDEMARK_SMTP_URL']);

/**
 * Per-carrier endpoints: TIDEMARK_CARRIER_<SCAC>_URL / _AUTH / _VERSION / _AN_URL / _RATE_LIMIT. Validated by
 * shape here, by SCAC later.
 */
const CARRIER_VAR = /^TIDEMARK_CARRIER_([A-Z0-9]{2,4})_(URL|AUTH|VERSION|AN_URL|RATE_LIMIT)$/;

export interface CarrierEndpoint {
  url?: string;
  auth?: string;
  /** DCSA Track & Trace version the endpoint speaks. */
  version?: '2.2' | '3.0';
  /** Root of the carrier's DCSA Arrival Notice 1.0.1 API, when it publishes one. */
  arrivalNoticeUrl?: string;
  /** Requests a minute Tidemark may send the endpoint, shared by every process. */
  rateLimitPerMinute?: number;
}

export interface Config {
  port: number;
  host: string;
  /** The final base of absolute links: frozen before the services are made (see `listeningAt`). */
  readonly publicUrl: string;
  /** False when publicUrl was derived from host and port (then the address bound on port 0 replaces it). */
  publicUrlConfigured: boolean;
  roles: Role[];
  dataDir: string;
  databaseUrl: string | undefined;
  adminToken: string | undefined;
  defaultPlan: Plan;
  signup: boolean;
  /**
   * `TIDEMARK_API_TRIAL`: free accounts read tracking data through the API only during an API trial (on, the default);
   * off lets every account read (domain/api-trial.ts).
   */
  apiTrial: boolean;
  /**
   * Rolling-hour limits of the web app's doors: self-serve sign-ups per client address and in all, and wrong
   * passwords for one account (from all addresses) before only addresses it was used from may try.
   */
  authLimits: { signupPerAddressPerHour: number; signupPerHour: number; signinFailuresPerAccountPerHour: number };
  /**
   * Peers whose X-Forwarded-For is believed (addresses, CIDR ranges, or proxy-addr's loopback/linklocal/uniquelocal);
   * empty: the socket's address is the client's.
   */
  trustedProxies: string[];
  /** Browser origins allowed to call /v2 cross-origin (CORS, preflight included); empty: none. */
  corsOrigins: string[];
  /** Where invitation and password-reset e-mails go out; null: the links are only shown to who made them. */
  smtp: { url: string; from: string } | null;
  sandbox: { enabled: boolean; speed: number; seed: string; url: string | undefined };
  carriers: Record<string, CarrierEndpoint>;
  webhooks: {
    allowPrivate: boolean;
    /** An explicit schedule, used exactly; null for the default jittered one. */
    retryScheduleMs: number[] | null;
    timeoutMs: number;
    disableAfterMs: number;
    referenceHeader: boolean;
    egressIps: string[];
  };
  mcp: { allowedHosts: string[]; allowedOrigins: string[] };
  /** Memory each API process may give rendered container and shipment documents (MiB); 0 keeps none. */
  documentCacheMb: number;
  logLevel: string;
  /**
   * 32-byte key sealing secrets at rest (`TIDEMARK_SECRET_KEY`). Null: on PGlite the key in `secretKeyFile`, generated
   * at first start; with `DATABASE_URL` a start refuses (the key must not live in the database it protects).
   */
  secretKey: Buffer | null;
  /** `TIDEMARK_OLD_SECRET_KEY`: the key `tidemark secret-key reseal` opens the stored secrets with; null = the current one. */
  oldSecretKey: Buffer | null;
  /** The PGlite data directory's key file (`<data dir>/secret-key`, mode 0600); null with `DATABASE_URL`. */
  secretKeyFile: string | null;
  /** Test only: where the process kills itself (see CRASH_POINTS); null in every real deployment. */
  testCrashAt: CrashPoint | null;
  ais: {
    /** A real AIS feed the worker role listens to: `tcp://host:port` or `udp://host:port`; null = none. */
    nmeaUrl: string | null;
  };
  /** How long a stop (SIGTERM, SIGINT) may take before the process exits anyway, leaving its leased work to others. */
  stopTimeoutMs: number;
}

export type Env = Record<string, string | undefined>;

/** Reads `tidemark.config` (KEY=VALUE lines, # comments) if present; the environment wins. */
export function readConfigFile(path: string): Env {
  if (!existsSync(path)) return {};
  const out: Env = {};
  const lines = readFileSync(path, 'utf8').split(/\r?\n/);
  lines.forEach((raw, i) => {
    const line = raw.trim();
    if (!line || line.startsWith('#')) return;
    const eq = line.indexOf('=');
    if (eq <= 0) throw new ConfigError([`${path}:${i + 1}: expected KEY=VALUE`]);
    const value = line
      .slice(eq + 1)
      .trim()
      .replace(/^(['"])(.*)\1$/, '$2');
    out[line.slice(0, eq).trim()] = value;
  });
  return out;
}

export interface Overrides {
  port?: number;
  host?: string;
  dataDir?: string;
  roles?: string;
}

/**
 * Freezes a configuration, nested settings too (Buffers excepted: a key's bytes cannot be frozen, and nothing
 * writes them), so that nothing changes it once the services are made from it. Returns the same object.
 */
export function freezeConfig(config: Config): Config {
  const freeze = (value: unknown): void => {
    if (value === null || typeof value !== 'object' || Buffer.isBuffer(value) || Object.isFrozen(value)) return;
    Object.freeze(value);
    for (const inner of Object.values(value)) freeze(inner);
  };
  freeze(config);
  return config;
}

/**
 * The configuration of a process listening at `address` (`http://host:port`, as bound): a derived public URL names
 * the port actually bound (PORT=0 picks a free one); a configured TIDEMARK_PUBLIC_URL stays. Frozen.
 */
export function listeningAt(config: Config, address: string): Config {
  if (config.publicUrlConfigured || config.publicUrl === address) return freezeConfig(config);
  return freezeConfig({ ...config, publicUrl: address });
}

export function loadConfig(env: Env, overrides: Overrides = {}, cwd = process.cwd()): Config {
  const problems: string[] = [];
  const carriers: Record<string, CarrierEndpoint> = {};
  const input: Record<string, string | undefined> = {};

  for (const [key, value] of Object.entries(env)) {
    if (value === undefined) continue;
    const carrier = CARRIER_VAR.exec(key);
    if (carrier) {
      const scac = carrier[1]!;
      const entry = carriers[scac] ?? {};
      carriers[scac] = entry;
      if (carrier[2] === 'URL' || carrier[2] === 'AN_URL') {
        const parsed = z.url({ protocol: /^https?$/ }).safeParse(value);
        if (!parsed.success) problems.push(`${key}: must be an http(s) URL`);
        else if (carrier[2] === 'URL') entry.url = value;
        else entry.arrivalNoticeUrl = value;
      } else if (carrier[2] === 'RATE_LIMIT') {
        const n = Number(value);
        if (Number.isInteger(n) && n > 0) entry.rateLimitPerMinute = n;
        else problems.push(`${key}: must be a whole number of requests a minute, above 0`);
      } else if (carrier[2] === 'VERSION') {
        if (value === '2.2' || value === '3.0') entry.version = value;
        else problems.push(`${key}: must be 2.2 or 3.0`);
      } else entry.auth = value;
      continue;
    }
    if (key in variables) input[key] = value === '' ? undefined : value;
    else if (key.startsWith('TIDEMARK_')) problems.push(`${key}: unknown variable`);
  }
  if (overrides.port !== undefined) input.PORT = String(overrides.port);
  if (overrides.host !== undefined) input.TIDEMARK_HOST = overrides.host;
  if (overrides.dataDir !== undefined) input.TIDEMARK_DATA_DIR = overrides.dataDir;
  if (overrides.roles !== undefined) input.TIDEMARK_ROLES = overrides.roles;

  const values: Record<string, unknown> = {};
  for (const [key, schema] of Object.entries(variables)) {
    const parsed = (schema as z.ZodType).safeParse(input[key]);
    if (parsed.success) values[key] = parsed.data;
    else {
      const got = SECRET_VARIABLES.has(key) ? 'value not shown' : `got ${JSON.stringify(input[key])}`;
      problems.push(`${key}: ${parsed.error.issues.map((i) => i.message).join('; ')} (${got})`);
    }
  }
  if (problems.length) throw new ConfigError(problems);

  const v = values as { [K in keyof typeof variables]: z.output<(typeof variables)[K]> };
  const roles = [...new Set(v.TIDEMARK_ROLES)];
  if (roles.length === 0) throw new ConfigError(['TIDEMARK_ROLES: name at least one of api, worker, sandbox']);
  const host = v.TIDEMARK_HOST;
  const urlHost = host.includes(':') ? `[${host}]` : host;
  const publicUrl = (v.TIDEMARK_PUBLIC_URL ?? `http://${urlHost}:${v.PORT}`).replace(/\/+$/, '');
  const publicHost = new URL(publicUrl).host;
  return freezeConfig({
    port: v.PORT,
    host,
    publicUrl,
    publicUrlConfigured: v.TIDEMARK_PUBLIC_URL !== undefined,
    roles,
    dataDir: resolve(cwd, v.TIDEMARK_DATA_DIR),
    databaseUrl: v.DATABASE_URL,
    adminToken: v.TIDEMARK_ADMIN_TOKEN,
    defaultPlan: v.TIDEMARK_DEFAULT_PLAN,
    signup: v.TIDEMARK_SIGNUP,
    apiTrial: v.TIDEMARK_API_TRIAL,
    authLimits: {
      signupPerAddressPerHour: v.TIDEMARK_SIGNUP_LIMIT_PER_ADDRESS,
      signupPerHour: v.TIDEMARK_SIGNUP_LIMIT_TOTAL,
      signinFailuresPerAccountPerHour: v.TIDEMARK_SIGNIN_ACCOUNT_FAILURES,
    },
    trustedProxies: v.TIDEMARK_TRUSTED_PROXIES,
    corsOrigins: v.TIDEMARK_CORS_ORIGINS.map((o) => new URL(o).origin),
    smtp: v.TIDEMARK_SMTP_URL ? { url: v.TIDEMARK_SMTP_URL, from: v.TIDEMARK_SMTP_FROM } : null,
    sandbox: {
      enabled: v.TIDEMARK_SANDBOX,
      speed: v.TIDEMARK_SANDBOX_SPEED,
      seed: v.TIDEMARK_SANDBOX_SEED,
      url: v.TIDEMARK_SANDBOX_URL,
    },
    carriers,
    webhooks: {
      allowPrivate: v.TIDEMARK_WEBHOOKS_ALLOW_PRIVATE,
      retryScheduleMs: v.TIDEMARK_WEBHOOKS_RETRY_SCHEDULE ?? null,
      timeoutMs: v.TIDEMARK_WEBHOOKS_TIMEOUT_MS,
      disableAfterMs: v.TIDEMARK_WEBHOOKS_DISABLE_AFTER,
      referenceHeader: v.TIDEMARK_WEBHOOKS_REFERENCE_HEADER,
      egressIps: v.TIDEMARK_WEBHOOKS_EGRESS_IPS,
    },
    mcp: {
      allowedHosts: v.TIDEMARK_MCP_ALLOWED_HOSTS ?? [publicHost],
      allowedOrigins: v.TIDEMARK_MCP_ALLOWED_ORIGINS ?? [new URL(publicUrl).origin],
    },
    documentCacheMb: v.TIDEMARK_DOCUMENT_CACHE_MB,
    logLevel: v.TIDEMARK_LOG_LEVEL,
    secretKey: v.TIDEMARK_SECRET_KEY ?? null,
    oldSecretKey: v.TIDEMARK_OLD_SECRET_KEY ?? null,
    secretKeyFile: v.DATABASE_URL ? null : join(resolve(cwd, v.TIDEMARK_DATA_DIR), 'secret-key'),
    testCrashAt: v.TIDEMARK_TEST_CRASH_AT ?? null,
    ais: { nmeaUrl: v.TIDEMARK_AIS_NMEA_URL ?? null },
    stopTimeoutMs: v.TIDEMARK_STOP_TIMEOUT,
  });
}

/** The environment of this process merged over `tidemark.config` in the working directory. */
export function processEnv(cwd = process.cwd()): Env {
  return { ...readConfigFile(resolve(cwd, 'tidemark.config')), ...process.env };
}

export type { Feature, Plan };
export { FEATURES };
