// GET /healthz: the process is up.
import type { App, HttpDeps } from '../../context.js';

export default function healthz(app: App, _deps: HttpDeps) {
  app.get('/healthz', { schema: { tags: ['system'], summary: 'The process is up' } }, async () => ({ status: 'ok' }));
}
