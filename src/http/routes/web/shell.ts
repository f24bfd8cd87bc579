// The web app (web/, built into dist/web by scripts/build-web.mjs): the HTML shell at every path of the app
// (its content-hashed files under /assets/ are assets.ts). Not API: hidden from the OpenAPI document and open to anyone
// (the app signs in through /auth/* and calls /v2 with the session cookie). Without a build, the app's paths
// answer 503 saying how to build it.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App, HttpDeps } from '../../context.js';
import { errorBody } from '../../errors.js';
import { APP_PATHS } from '../../../domain/web-paths.js';

export { APP_PATHS };

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

const hidden = { hide: true } as const;
const open = { auth: 'none' } as const;

export default function webAppShell(app: App, _deps: HttpDeps) {
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
}
