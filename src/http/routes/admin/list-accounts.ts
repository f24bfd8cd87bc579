// GET /admin/accounts: every account.
import type { App, HttpDeps } from '../../context.js';
import { admin, renderAccount } from './render.js';

export default function listAccounts(app: App, deps: HttpDeps) {
  const { accounts, db } = deps;
  app.get('/admin/accounts', { config: admin, schema: { tags: ['admin'], summary: 'List accounts' } }, async () => ({
    data: (await accounts.list(db)).map(renderAccount),
  }));
}
