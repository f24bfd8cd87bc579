// compose.yaml as the deployment tests read it: parsed with `yaml` (YAML 1.1 merge keys on, as Compose reads
// them), then interpolated from an operator's .env the way Compose does, then its tidemark services picked out.
// Shared by test/deploy/static.test.ts (the file's shape) and test/e2e/topology.test.ts (the same services run as
// plain processes), so that what is checked and what is run come from one reading of the file.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseDocument } from 'yaml';

export const ROOT = resolve(import.meta.dirname, '../..');
export const COMPOSE_FILE = resolve(ROOT, 'compose.yaml');

/** One service as this file uses them (the Compose keys the tests look at; the rest is kept as read). */
export interface ComposeService {
  image?: string;
  build?: string | { context?: string };
  command?: string[] | string;
  environment?: Record<string, string | number | boolean | null> | string[];
  restart?: string;
  depends_on?: string[] | Record<string, { condition?: string }>;
  healthcheck?: { test?: string[] | string; disable?: boolean };
  stop_grace_period?: string;
  networks?: string[] | Record<string, { ipv4_address?: string } | null>;
  ports?: string[];
  volumes?: string[];
  [key: string]: unknown;
}

export interface ComposeFile {
  name?: string;
  services: Record<string, ComposeService>;
  networks?: Record<string, { ipam?: { config?: { subnet?: string }[] } } | null>;
  volumes?: Record<string, unknown>;
  [key: string]: unknown;
}

/** compose.yaml parsed, before interpolation: `${…}` still in place. Throws on any YAML error or warning. */
export function parseCompose(text = readFileSync(COMPOSE_FILE, 'utf8')): ComposeFile {
  const doc = parseDocument(text, { merge: true, uniqueKeys: true, prettyErrors: true });
  const problems = [...doc.errors, ...doc.warnings];
  if (problems.length) throw new Error(`compose.yaml: ${problems.map((p) => p.message).join('\n')}`);
  return doc.toJS({ maxAliasCount: 100 }) as ComposeFile;
}

export class MissingVariable extends Error {
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(`required variable ${variable} is missing a value: ${message}`);
  }
}

/**
 * Compose's interpolation of one value from `env` (the operator's .env): `${NAME}`, `${NAME:-default}` (unset or
 * empty: the default), `${NAME:?message}` (unset or empty: an error, as `docker compose` refuses to start) and `$$`
 * (a literal `$`). Any other use of `$` throws: this file keeps to these forms, and a new one must be taught here
 * before a test passes with it.
 */
export function interpolate(value: string, env: Record<string, string | undefined>): string {
  return value.replace(/\$(\$|\{([A-Za-z_][A-Za-z0-9_]*)(?:(:-|:\?)([^}]*))?\}|)/g, (whole, dollar, name, op, arg) => {
    if (dollar === '$') return '$';
    if (!name) throw new Error(`unsupported interpolation in ${JSON.stringify(value)}`);
    const got = env[name];
    if (got !== undefined && got !== '') return got;
    if (op === ':-') return arg;
    if (op === ':?') throw new MissingVariable(name, arg);
    return whole === `\${${name}}` ? '' : whole;
  });
}

/** Every string in `value`, interpolated (Compose interpolates values, never keys). */
export function interpolateAll<T>(value: T, env: Record<string, string | undefined>): T {
  if (typeof value === 'string') return interpolate(value, env) as T;
  if (Array.isArray(value)) return value.map((v) => interpolateAll(v, env)) as T;
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, interpolateAll(v, env)])) as T;
  }
  return value;
}

/** A service's environment as the process gets it: a map of strings (a list's `KEY=value` items split at the first `=`). */
export function environmentOf(service: ComposeService): Record<string, string> {
  const env = service.environment ?? {};
  if (Array.isArray(env)) {
    return Object.fromEntries(
      env.map((item) => {
        const eq = item.indexOf('=');
        if (eq <= 0) throw new Error(`environment item without a value: ${item}`);
        return [item.slice(0, eq), item.slice(eq + 1)];
      }),
    );
  }
  return Object.fromEntries(Object.entries(env).map(([k, v]) => [k, v === null ? '' : String(v)]));
}

export function dependsOn(service: ComposeService): Record<string, string> {
  const d = service.depends_on ?? {};
  if (Array.isArray(d)) return Object.fromEntries(d.map((name) => [name, 'service_started']));
  return Object.fromEntries(Object.entries(d).map(([name, v]) => [name, v?.condition ?? 'service_started']));
}

export function networksOf(service: ComposeService): Record<string, { ipv4_address?: string }> {
  const n = service.networks ?? ['default'];
  if (Array.isArray(n)) return Object.fromEntries(n.map((name) => [name, {}]));
  return Object.fromEntries(Object.entries(n).map(([name, v]) => [name, v ?? {}]));
}

/** The services run from this repository's image: built from its root (the Dockerfile beside compose.yaml). */
export function tidemarkServices(compose: ComposeFile): [string, ComposeService][] {
  return Object.entries(compose.services).filter(([, s]) => {
    const context = typeof s.build === 'string' ? s.build : s.build?.context;
    return context !== undefined && resolve(ROOT, context) === ROOT;
  });
}

/** The command a service runs (the image's ENTRYPOINT gets it as arguments): a list, or a string split at spaces. */
export function commandOf(service: ComposeService): string[] | undefined {
  if (service.command === undefined) return undefined;
  return Array.isArray(service.command) ? service.command : service.command.split(/\s+/).filter(Boolean);
}

/** An operator's .env with a value for every variable compose.yaml requires (test values, never real ones). */
export function exampleOperatorEnv(): Record<string, string> {
  return {
    TIDEMARK_DOMAIN: 'tidemark.example',
    POSTGRES_PASSWORD: 'c0mposeTestPassw0rd',
    TIDEMARK_SECRET_KEY: Buffer.alloc(32, 7).toString('base64'),
    TIDEMARK_ADMIN_TOKEN: `tma_${'a'.repeat(48)}`,
    TIDEMARK_SMTP_URL: 'smtp://tidemark:mail-password@mail.example:587',
  };
}
