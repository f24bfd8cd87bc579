import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../../../../test/kit/app.js';
import { APP_PATHS as CLIENT_PATHS } from '../../../../web/src/paths.js';
import { APP_PATHS, CONTENT_SECURITY_POLICY, webAppFiles } from './shell.js';

const ROOT = resolve(import.meta.dirname, '../../../..');
const defaultDir = webAppFiles.dir;

let t: TestApp;
let tmp: string;
let built: string;
let manifest: { app: string; styles: string; icon: string; preload: string[] };

/** A concrete URL for each app path (`:id` → a made-up id). */
const urls = APP_PATHS.map((p) => p.replace(/:(\w+)/g, (_m, name: string) => `${name}-0193f2c4`));

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'tidemark-web-'));
  built = join(tmp, 'web');
  execFileSync(process.execPath, ['scripts/build-web.mjs', '--outdir', built], { cwd: ROOT, stdio: 'pipe' });
  manifest = JSON.parse(readFileSync(join(built, 'manifest.json'), 'utf8'));
  webAppFiles.dir = built;
  t = await testApp();
}, 120_000);

afterAll(async () => {
  webAppFiles.dir = defaultDir;
  await t?.close();
  rmSync(tmp, { recursive: true, force: true });
});

describe('the web app shell', () => {
  it('answers every path of the app router, and only those', () => {
    expect([...APP_PATHS]).toEqual([...CLIENT_PATHS]);
    expect(APP_PATHS).not.toContain('/shipments/find');
  });

  it.each(urls)('serves the shell at %s', async (url) => {
    const res = await t.app.inject({ url });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.body).toContain('<div id="app">');
    expect(res.body).toContain(`<script type="module" src="${manifest.app}"></script>`);
    expect(res.body).toContain(`<link rel="stylesheet" href="${manifest.styles}" />`);
  });

  it('serves it with a trailing slash and a query too (deep links, ?next=)', async () => {
    expect((await t.app.inject({ url: '/shipments/?q=MSKU' })).statusCode).toBe(200);
    expect((await t.app.inject({ url: '/signin?next=%2Fboard' })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'HEAD', url: '/board' })).statusCode).toBe(200);
  });

  it('sends the security headers', async () => {
    const res = await t.app.inject({ url: '/developers' });
    expect(res.headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
    expect(CONTENT_SECURITY_POLICY).toContain("script-src 'self'");
    expect(CONTENT_SECURITY_POLICY).toContain("frame-ancestors 'none'");
    expect(CONTENT_SECURITY_POLICY).not.toContain('unsafe');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('same-origin');
    expect(res.headers['x-frame-options']).toBe('DENY');
  });

  it('has no inline script or style and nothing from another origin', async () => {
    const html = (await t.app.inject({ url: '/' })).body;
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attrs, body] of scripts) {
      expect(attrs).toMatch(/\bsrc="\/assets\//);
      expect(body!.trim()).toBe('');
    }
    expect(html).not.toMatch(/<style\b|\sstyle=|\son[a-z]+=/i);
    const refs = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    for (const ref of refs) expect(ref, ref).toMatch(/^\/(?!\/)/);
  });

  it('answers paths that are not the app with the API 404, not the shell', async () => {
    const res = await t.app.inject({ url: '/no-such-page' });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toMatch(/json/);
  });

  it('keeps its routes out of the OpenAPI document', () => {
    const mine = t.app.routeTable.filter((r) => (APP_PATHS as readonly string[]).includes(r.url) || r.url.startsWith('/assets'));
    expect(mine.length).toBe(APP_PATHS.length + 1);
    for (const r of mine) expect(r.documented, r.url).toBe(false);
  });
});

describe('the assets', () => {
  it('serves the bundle, the styles and the icon with their types and a long cache', async () => {
    const expected: [string, string][] = [
      [manifest.app, 'text/javascript; charset=utf-8'],
      [manifest.styles, 'text/css; charset=utf-8'],
      [manifest.icon, 'image/svg+xml'],
      [`${manifest.app}.map`, 'application/json; charset=utf-8'],
    ];
    for (const [url, type] of expected) {
      const res = await t.app.inject({ url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type'], url).toBe(type);
      expect(res.headers['cache-control'], url).toBe('public, max-age=31536000, immutable');
      expect(res.headers['x-content-type-options'], url).toBe('nosniff');
      expect(res.rawPayload.length, url).toBeGreaterThan(100);
    }
  });

  it('names every asset by its content hash', () => {
    for (const url of [manifest.app, manifest.styles, manifest.icon]) expect(url).toMatch(/^\/assets\/[a-z]+-[A-Za-z0-9]{8,}\.[a-z]+$/);
  });

  it('bundles everything: the code loads nothing from another origin', async () => {
    const js = (await t.app.inject({ url: manifest.app })).body;
    expect(js).not.toMatch(/\bimport\s*\(?\s*["']https?:/);
    // Every static import (`import"x"`, `import{a as b}from"x"`) names one of our own chunks. (Matching a bare
    // `from "` would trip on UI text such as "the route from ", …".)
    const specifiers = [...js.matchAll(/\bimport\s*(?:[\w$*{}\s,]+?\bfrom\s*)?["']([^"']+)["']/g)].map((m) => m[1]);
    for (const specifier of specifiers) expect(specifier).toMatch(/^(\.\/|\/assets\/)/);
    const css = (await t.app.inject({ url: manifest.styles })).body;
    expect(css).not.toMatch(/@import|url\(\s*["']?(https?:)?\/\//);
  });

  it('answers 404 for unknown names and anything that is not a plain file name', async () => {
    for (const url of [
      '/assets/nope-12345678.js',
      '/assets/..%2Fmanifest.json',
      '/assets/../index.html',
      '/assets/',
      '/assets/.hidden',
      '/assets/a/b.js',
    ]) {
      const res = await t.app.inject({ url });
      expect(res.statusCode, url).toBe(404);
    }
  });
});

describe('next to the API', () => {
  it('shadows no API route: /v2 still needs a key', async () => {
    const res = await t.app.inject({ url: '/v2/shipments' });
    expect(res.statusCode).toBe(401);
    const { auth } = await t.account();
    expect((await t.app.inject({ url: '/v2/shipments', headers: auth })).statusCode).toBe(200);
    expect((await t.app.inject({ url: '/healthz' })).json()).toEqual({ status: 'ok' });
  });
});

describe('without a build', () => {
  it('answers the app paths with a 503 saying how to build it', async () => {
    webAppFiles.dir = join(tmp, 'missing');
    try {
      for (const url of ['/', '/shipments', '/containers/x']) {
        const res = await t.app.inject({ url });
        expect(res.statusCode, url).toBe(503);
        expect(res.headers['content-type']).toMatch(/^application\/json/);
        const detail = res.json().errors[0].detail as string;
        expect(detail).toMatch(/not built/);
        expect(detail).toContain('npm run build');
      }
      expect((await t.app.inject({ url: manifest.app })).statusCode).toBe(404);
    } finally {
      webAppFiles.dir = built;
    }
  });
});
