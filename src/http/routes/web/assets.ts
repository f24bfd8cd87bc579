// GET /assets/*: the web app's content-hashed files (dist/web/assets), cached for a year. Not API: hidden from
// the OpenAPI document and open to anyone.
import { readFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { z } from 'zod';
import type { App, HttpDeps } from '../../context.js';
import { errorBody } from '../../errors.js';
import { webAppFiles } from './shell.js';

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

export default function webAppAssets(app: App, _deps: HttpDeps) {
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
