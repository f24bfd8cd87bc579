// The container image and the compose file, checked without a container engine (none runs on CI's machines, and
// no base image can be pulled there): the Dockerfile parsed with dockerfile-ast and validated with dockerfile-utils
// (the parser and linter of the Dockerfile language server), .dockerignore read with @balena/dockerignore (Docker's
// own matching rules), compose.yaml parsed with `yaml` and interpolated as Compose does, and every tidemark
// service's environment run through the service's own configuration loader (src/config), which refuses an unknown
// TIDEMARK_* variable or an invalid value exactly as `tidemark start` would. test/e2e/topology.test.ts runs the same
// services as processes. Touches no database: runs once, in the PGlite pass.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import dockerignore from '@balena/dockerignore';
import { Copy, DockerfileParser, Env, Healthcheck, type Instruction, JSONInstruction } from 'dockerfile-ast';
import { validate } from 'dockerfile-utils';
import ipaddr from 'ipaddr.js';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.js';
import { parseDuration } from '../../src/lib/durations.js';
import {
  type ComposeService,
  commandOf,
  dependsOn,
  environmentOf,
  exampleOperatorEnv,
  interpolateAll,
  MissingVariable,
  networksOf,
  parseCompose,
  ROOT,
  tidemarkServices,
} from './compose.js';

/**
 * The package is CommonJS (`module.exports = factory`) with types that declare an ES default export: under NodeNext
 * TypeScript sees the default import as `{ default: factory }`, while Node hands over the factory itself.
 */
const ignore = dockerignore as unknown as typeof dockerignore.default;

const read = (path: string) => readFileSync(resolve(ROOT, path), 'utf8');

const DOCKERFILE = read('Dockerfile');
const dockerfile = DockerfileParser.parse(DOCKERFILE);
const compose = parseCompose();
const OPERATOR_ENV = exampleOperatorEnv();
const deployed = interpolateAll(compose, OPERATOR_ENV);

/** An exact release: `24.21.0`, `15.20` (PostgreSQL numbers its releases major.minor), maybe with a variant suffix. */
const EXACT_TAG = /^\d+\.\d+(\.\d+)?(-[a-z0-9][a-z0-9.-]*)?$/;

/** The instructions of each build stage, in order: a stage starts at its FROM. */
function stages(): { from: Instruction; name: string | null; instructions: Instruction[] }[] {
  const out: { from: Instruction; name: string | null; instructions: Instruction[] }[] = [];
  for (const instruction of dockerfile.getInstructions()) {
    if (instruction.getKeyword() === 'FROM') {
      const from = dockerfile.getFROMs()[out.length]!;
      out.push({ from: instruction, name: from.getBuildStage(), instructions: [] });
    } else if (out.length) out.at(-1)!.instructions.push(instruction);
  }
  return out;
}

/**
 * An exec-form instruction's strings (`CMD ["a","b"]`, `HEALTHCHECK … CMD ["a","b"]`); refuses the shell form, which
 * would run under /bin/sh.
 */
function execForm(instruction: Instruction | undefined): string[] {
  if (instruction instanceof JSONInstruction) {
    const strings = instruction.getJSONStrings().map((s) => s.getJSONValue());
    if (strings.length && instruction.getRawArgumentsContent()?.trim().startsWith('[')) return strings;
  }
  if (instruction instanceof Healthcheck && instruction.getSubcommand()?.getValue() === 'CMD') {
    const raw = instruction.getRawArgumentsContent() ?? '';
    const parsed: unknown = JSON.parse(raw.slice(raw.indexOf('[')));
    if (Array.isArray(parsed) && parsed.every((s) => typeof s === 'string')) return parsed;
  }
  throw new Error(`not in exec form: ${instruction?.toString()}`);
}

const finalStage = () => stages().at(-1)!;
const last = (keyword: string) =>
  finalStage()
    .instructions.filter((i) => i.getKeyword() === keyword)
    .at(-1);

describe('Dockerfile', () => {
  it('is valid Dockerfile syntax: the linter of the Dockerfile language server finds nothing', () => {
    const problems = validate(DOCKERFILE).map((d) => `line ${d.range.start.line + 1}: ${d.message}`);
    expect(problems).toEqual([]);
  });

  it('builds in two stages, each FROM an exact release of the same Node LTS line that CI smokes', () => {
    const all = stages();
    expect(all.length).toBeGreaterThanOrEqual(2);
    const froms = dockerfile.getFROMs();
    for (const from of froms) {
      expect(from.getImageName(), from.getImage() ?? '').toBe('node');
      expect(from.getImageTag(), `${from.getImage()}: no tag, or not an exact release`).toMatch(EXACT_TAG);
      expect(from.getImageTag()).toMatch(/^\d+\.\d+\.\d+-/);
    }
    expect(new Set(froms.map((f) => f.getImage())).size).toBe(1);
    // An LTS line the built service is smoked on in CI (stage 5 of .ci/run), so the image runs a tested Node.
    const smoked = /^SMOKE_NODE_MAJORS=\(([\d ]+)\)$/m.exec(read('.ci/run'))?.[1]?.split(' ').map(Number);
    expect(smoked?.length).toBeGreaterThan(0);
    const major = Number(froms[0]!.getImageTag()!.split('.')[0]);
    expect(smoked).toContain(major);
    expect(major % 2, 'even Node majors are the LTS lines').toBe(0);
  });

  it('builds dist/ with npm ci (its prepare script) and leaves only production dependencies', () => {
    const build = stages()[0]!;
    const runs = build.instructions.filter((i) => i.getKeyword() === 'RUN').map((i) => i.getRawArgumentsContent() ?? '');
    expect(runs.join('\n')).toMatch(/\bnpm ci\b[\s\S]*\bnpm prune --omit=dev\b/);
    expect(read('package.json')).toMatch(/"prepare": "npm run build"/);
  });

  it('runs as a user other than root, with only the compiled service and its production dependencies', () => {
    const final = finalStage();
    const user = last('USER')?.getArgumentsContent()?.trim();
    expect(user, 'the final stage sets USER').toBeTruthy();
    expect(user!.split(':')[0]).not.toMatch(/^(root|0)$/);
    const copied = final.instructions
      .filter((i) => i instanceof Copy)
      .map((i) => ({
        from:
          i
            .getFlags()
            .find((f) => f.getName() === 'from')
            ?.getValue() ?? null,
        sources: i
          .getArguments()
          .map((a) => a.getValue())
          .slice(0, -1),
      }));
    const fromBuild = copied.filter((c) => c.from === stages()[0]!.name).flatMap((c) => c.sources);
    expect(fromBuild.sort()).toEqual(['/app/bin', '/app/dist', '/app/node_modules', '/app/package.json']);
    // Nothing else comes from the build context but the licence files and the health check.
    expect(
      copied
        .filter((c) => c.from === null)
        .flatMap((c) => c.sources)
        .sort(),
    ).toEqual(['LICENSE', 'NOTICE', 'deploy/healthcheck.mjs']);
  });

  it('runs `tidemark start` (bin/tidemark.js, the package binary), its roles and settings from the environment', () => {
    const entrypoint = execForm(last('ENTRYPOINT'));
    const cmd = execForm(last('CMD'));
    const pkg = JSON.parse(read('package.json')) as { bin: { tidemark: string } };
    expect(entrypoint).toEqual(['node', pkg.bin.tidemark]);
    expect(cmd).toEqual(['start']);
    expect(existsSync(resolve(ROOT, pkg.bin.tidemark))).toBe(true);
    // The image's ENV is a configuration the service accepts (an unknown TIDEMARK_* stops the start), listening
    // beyond the container's loopback, with the PGlite data directory on the image's volume; no roles are fixed
    // (TIDEMARK_ROLES decides, all three when unset).
    const env = Object.fromEntries(
      finalStage()
        .instructions.filter((i) => i instanceof Env)
        .flatMap((i) => i.getProperties())
        .map((p) => [p.getName(), p.getValue() ?? '']),
    );
    const config = loadConfig(env, {}, '/app');
    expect(config.host).toBe('0.0.0.0');
    expect(config.dataDir).toBe('/data');
    expect(env).not.toHaveProperty('TIDEMARK_ROLES');
    const volumes = finalStage()
      .instructions.filter((i) => i.getKeyword() === 'VOLUME')
      .map((i) => i.getRawArgumentsContent());
    expect(volumes.join(' ')).toContain('/data');
  });

  it('checks health on /readyz with Node (the slim image has no curl), by a script the image carries', () => {
    const healthchecks = finalStage().instructions.filter((i) => i instanceof Healthcheck);
    expect(healthchecks).toHaveLength(1);
    const command = execForm(healthchecks[0]!);
    expect(command).toEqual(['node', 'deploy/healthcheck.mjs']);
    expect(read('deploy/healthcheck.mjs')).toMatch(/fetch\(`http:\/\/\$\{host\}:\$\{port\}\/readyz`/);
    // Room for a first start (migrations) before failures count.
    const flags = Object.fromEntries(healthchecks[0]!.getFlags().map((f) => [f.getName(), f.getValue()]));
    expect(parseDuration(flags['start-period']!)).toBeGreaterThanOrEqual(30_000);
  });

  it('gets a build context with what the build needs and without local data, builds or secrets (.dockerignore)', () => {
    const rules = ignore().add(read('.dockerignore'));
    const migration = readdirSync(resolve(ROOT, 'src/storage/migrations')).find((f) => f.endsWith('.sql'));
    const needed = [
      'package.json',
      'package-lock.json',
      'tsconfig.json',
      'tsconfig.build.json',
      'bin/tidemark.js',
      'src/main.ts',
      `src/storage/migrations/${migration}`,
      'web/src/main.tsx',
      'web/index.html',
      'web/styles.css',
      'scripts/build-web.mjs',
      'scripts/copy-assets.mjs',
      'deploy/healthcheck.mjs',
      'LICENSE',
      'NOTICE',
    ];
    expect(needed.filter((p) => !existsSync(resolve(ROOT, p)))).toEqual([]);
    expect(needed.filter((p) => rules.ignores(p))).toEqual([]);
    const kept = [
      '.env',
      'node_modules/fastify/package.json',
      'dist/main.js',
      'data/secret-key',
      'data/pg/PG_VERSION',
      '.git/config',
      'tidemark.config',
      'test/e2e/topology.test.ts',
      'src/config/index.test.ts',
    ];
    expect(kept.filter((p) => !rules.ignores(p))).toEqual([]);
  });
});

describe('compose.yaml', () => {
  const services = Object.entries(deployed.services);
  const ours = tidemarkServices(deployed);
  const names = (pick: (s: ComposeService) => boolean) =>
    ours
      .filter(([, s]) => pick(s))
      .map(([n]) => n)
      .sort();
  const roles = (s: ComposeService) => environmentOf(s).TIDEMARK_ROLES;
  const isStart = (s: ComposeService) => (commandOf(s) ?? ['start']).join(' ') === 'start';

  it('runs the documented topology: PostgreSQL, a one-shot migrate, two API processes, two workers, a TLS proxy', () => {
    expect(services.map(([n]) => n).sort()).toEqual(['api-1', 'api-2', 'migrate', 'postgres', 'proxy', 'worker-1', 'worker-2']);
    expect(names((s) => isStart(s) && roles(s) === 'api')).toEqual(['api-1', 'api-2']);
    expect(names((s) => isStart(s) && roles(s) === 'worker')).toEqual(['worker-1', 'worker-2']);
    expect(names((s) => commandOf(s)?.join(' ') === 'migrate')).toEqual(['migrate']);
    expect(ours.map(([n]) => n).sort()).toEqual(['api-1', 'api-2', 'migrate', 'worker-1', 'worker-2']);
    // Every tidemark service runs one image, built from this repository.
    expect(new Set(ours.map(([, s]) => s.image)).size).toBe(1);
    expect(deployed.services.postgres!.image).toMatch(/^postgres:/);
    expect(deployed.services.proxy!.image).toMatch(/^caddy:/);
  });

  it('pins every image it pulls to an exact release', () => {
    for (const [name, s] of services.filter(([, s]) => !s.build)) {
      const [image, tag] = (s.image ?? '').split(':');
      expect(image, name).toBeTruthy();
      expect(tag, `${name}: ${s.image}`).toMatch(EXACT_TAG);
    }
  });

  it('migrates once before any tidemark process starts, after PostgreSQL is healthy', () => {
    const migrate = deployed.services.migrate!;
    expect(migrate.restart).toBe('no');
    expect(dependsOn(migrate)).toEqual({ postgres: 'service_healthy' });
    expect(deployed.services.postgres!.healthcheck?.test).toBeTruthy();
    expect(deployed.services.postgres!.volumes?.some((v) => v.startsWith('postgres-data:'))).toBe(true);
    for (const [name, s] of ours.filter(([n]) => n !== 'migrate')) {
      expect(dependsOn(s), name).toEqual({ migrate: 'service_completed_successfully' });
      expect(s.restart, name).toBe('unless-stopped');
    }
  });

  it('gives every tidemark service the one shared environment (only TIDEMARK_ROLES differs), which the service accepts', () => {
    const shared = environmentOf({ environment: deployed['x-tidemark-env'] as Record<string, string> });
    expect(Object.keys(shared).length).toBeGreaterThan(5);
    for (const [name, s] of ours) {
      const { TIDEMARK_ROLES, ...rest } = environmentOf(s);
      expect(rest, name).toEqual(shared);
      // The service's own reading: an unknown TIDEMARK_* variable or an invalid value throws here as it stops the start.
      const config = loadConfig(environmentOf(s), {}, '/app');
      expect(config.sandbox.enabled, `${name}: the sandbox is off`).toBe(false);
      expect(config.databaseUrl, name).toMatch(/^postgres:\/\/tidemark:.+@postgres:5432\/tidemark$/);
      expect(config.secretKey, name).not.toBeNull();
      expect(config.smtp?.url, name).toBe(OPERATOR_ENV.TIDEMARK_SMTP_URL);
      expect(config.publicUrl, name).toBe(`https://${OPERATOR_ENV.TIDEMARK_DOMAIN}`);
      expect(config.host, name).toBe('0.0.0.0');
      if (TIDEMARK_ROLES !== undefined) expect(config.roles, name).toEqual([TIDEMARK_ROLES]);
    }
    // Nothing anywhere turns the simulated world on.
    for (const [name, s] of services) expect(environmentOf(s).TIDEMARK_SANDBOX ?? 'off', name).toBe('off');
  });

  it('takes every secret from the operator, refusing to start without one; deploy/env.example lists them all', () => {
    // With every value given the whole file interpolates (the `deployed` reading above); without any one of them,
    // Compose refuses it.
    expect(() => interpolateAll(compose, OPERATOR_ENV)).not.toThrow();
    // Remove each variable in turn: Compose must refuse the file without it.
    const refusedWithout = Object.keys(OPERATOR_ENV).filter((name) => {
      try {
        interpolateAll(compose, { ...OPERATOR_ENV, [name]: '' });
        return false;
      } catch (error) {
        return error instanceof MissingVariable && error.variable === name;
      }
    });
    expect(refusedWithout.sort()).toEqual([
      'POSTGRES_PASSWORD',
      'TIDEMARK_ADMIN_TOKEN',
      'TIDEMARK_DOMAIN',
      'TIDEMARK_SECRET_KEY',
      'TIDEMARK_SMTP_URL',
    ]);
    const example = read('deploy/env.example');
    for (const name of refusedWithout) expect(example, name).toMatch(new RegExp(`^${name}=$`, 'm'));
    // The secrets are not written into the file itself.
    const text = read('compose.yaml');
    for (const name of ['TIDEMARK_SECRET_KEY', 'TIDEMARK_ADMIN_TOKEN', 'POSTGRES_PASSWORD', 'TIDEMARK_SMTP_URL']) {
      expect(text).toMatch(new RegExp(`\\$\\{${name}:\\?`));
    }
  });

  it('lets each process stop by itself: the grace period outlasts TIDEMARK_STOP_TIMEOUT; workers have no HTTP check', () => {
    for (const [name, s] of ours) {
      const config = loadConfig(environmentOf(s), {}, '/app');
      expect(parseDuration(s.stop_grace_period ?? '10s'), name).toBeGreaterThan(config.stopTimeoutMs);
      expect(s.init, `${name}: an init forwards signals and reaps`).toBe(true);
    }
    // The image's check asks /readyz, which only processes with the api (or sandbox) role serve.
    expect(names((s) => s.healthcheck?.disable === true)).toEqual(['migrate', 'worker-1', 'worker-2']);
  });

  it('puts the TLS proxy in front of both API processes, health-checked on /readyz, and trusts only its address', () => {
    const proxy = deployed.services.proxy!;
    expect(proxy.ports).toContain('443:443');
    const mount = proxy.volumes?.find((v) => v.endsWith(':/etc/caddy/Caddyfile:ro'));
    expect(mount).toBe('./deploy/Caddyfile:/etc/caddy/Caddyfile:ro');
    const caddyfile = read('deploy/Caddyfile');
    const apis = names((s) => roles(s) === 'api');
    const port = environmentOf(deployed.services[apis[0]!]!).PORT;
    const upstreams = /^\s*reverse_proxy\s+([^{\n]+)\{/m.exec(caddyfile)?.[1]?.trim().split(/\s+/);
    expect(upstreams?.sort()).toEqual(apis.map((n) => `${n}:${port}`));
    expect(caddyfile).toMatch(/^\s*health_uri \/readyz$/m);
    expect(caddyfile).toMatch(/^\{\$TIDEMARK_DOMAIN\} \{$/m);
    expect(environmentOf(proxy).TIDEMARK_DOMAIN).toBe(OPERATOR_ENV.TIDEMARK_DOMAIN);

    // The proxy has a fixed address on a network it shares with the API processes (and no tidemark process but
    // them); that address, and only it, is what the API processes believe X-Forwarded-For from.
    const [[network, { ipv4_address: address }]] = Object.entries(networksOf(proxy)) as [[string, { ipv4_address?: string }]];
    const subnet = deployed.networks?.[network]?.ipam?.config?.[0]?.subnet;
    expect(ipaddr.parse(address!).match(ipaddr.parseCIDR(subnet!))).toBe(true);
    expect(
      ours
        .filter(([, s]) => network in networksOf(s))
        .map(([n]) => n)
        .sort(),
    ).toEqual(apis);
    for (const [name, s] of ours) expect(loadConfig(environmentOf(s), {}, '/app').trustedProxies, name).toEqual([address]);
    // PostgreSQL is not reachable from the proxy's network.
    expect(Object.keys(networksOf(deployed.services.postgres!))).not.toContain(network);
  });
});
