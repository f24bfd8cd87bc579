// The web app (web/, built into dist/web by scripts/build-web.mjs): the HTML shell at every path of the app
// and its content-hashed files under /assets/. Not API: hidden from the OpenAPI document and open to anyone
// (the app signs in through /auth/* and calls /v2 with the session cookie). Without a build, the app's paths
// answer 503 saying how to build it.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, extname, join } from 'node:path';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { App, HttpDeps } from '../../context.js';
import { errorBody } from '../../errors.js';

/**
 * The paths the app's router answers (web/src/paths.ts holds the same list, and the test checks they agree).
 * `/shipments/find` is not one: the server resolves it and redirects.
 */
export const APP_PATHS = [
  '/',
  '/signin',
  '/signup',
  '/setup/:token',
  '/verify/:token',
  '/shipments',
  '/shipments/:id',
  '/containers/:id',
  '/board',
  '/developers',
  '/team',
  '/oauth/interaction/:uid',
] as const;

/** The directory holding package.json above `from` (src/… when run from source, dist/… when built). */
function packageRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) return from;
  }
}

/** Where the built app is read from, at each request (so a build made while the server runs is picked up). Tests point it elsewhere. */
export const webAppFiles = { dir: join(packageRoot(import.meta.dirname), 'dist', 'web') };

/**
 * Only this origin: scripts and styles from /assets (no inline code at all), the API on the same origin, no
 * framing, no plugins. Images may also be data:/blob: URLs (drawn maps, downloads).
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const SECURITY_HEADERS: Record<string, string> = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
  'x-frame-options': 'DENY',
};

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.webp': 'image/webp',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

/** Asset names are flat and made by the build: letters, digits, dots, dashes, underscores. */
const ASSET_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

const hidden = { hide: true } as const;
const open = { auth: 'none' } as const;

export default function webApp(app: App, _deps: HttpDeps) {
  const shell = async (req: FastifyRequest, reply: FastifyReply) => {
    let html: string;
    try {
      html = await readFile(join(webAppFiles.dir, 'index.html'), 'utf8');
    } catch {
      return reply
        .code(503)
        .header('cache-control', 'no-store')
        .type('application/json; charset=utf-8')
        .send(
          errorBody(503, [{ detail: 'The web app is not built: run `npm run build` (or `node scripts/build-web.mjs`).' }], String(req.id)),
        );
    }
    return reply.headers(SECURITY_HEADERS).header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(html);
  };

  for (const path of APP_PATHS) app.get(path, { schema: hidden, config: open }, shell);

  app.get('/assets/*', { schema: { ...hidden, params: z.object({ '*': z.string() }) }, config: open }, async (req, reply) => {
    const name = req.params['*'];
    const notFound = () =>
      reply
        .code(404)
        .type('application/json; charset=utf-8')
        .send(errorBody(404, [{ detail: 'No such asset' }], String(req.id)));
    if (!ASSET_NAME.test(name)) return notFound();
    let body: Buffer;
    try {
      body = await readFile(join(webAppFiles.dir, 'assets', name));
    } catch {
      return notFound();
    }
    return reply
      .header('cache-control', 'public, max-age=31536000, immutable')
      .header('x-content-type-options', 'nosniff')
      .type(TYPES[extname(name)] ?? 'application/octet-stream')
      .send(body);
  });
}
