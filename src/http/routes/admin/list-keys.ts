// GET /admin/accounts/{name}/keys: an account's API keys (masked).
import type { App, HttpDeps } from '../../context.js';
import { admin, nameParam, renderKey } from './render.js';

export default function listAccountKeys(app: App, deps: HttpDeps) {
  const { accounts, db } = deps;
  app.get(
    '/admin/accounts/:name/keys',
    { config: admin, schema: { tags: ['admin'], summary: 'List an account’s API keys (masked)', params: nameParam } },
    async (req) => {
      const a = await accounts.get(db, req.params.name);
      return { data: (await accounts.listKeys(db, a.id)).map(renderKey) };
    },
  );
}
