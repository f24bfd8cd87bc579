// GET /admin/accounts: every account.
import type { App, HttpDeps } from '../../context.js';
import { z } from 'zod';
import { admin, adminAccount, adminData, adminErrors, renderAccount } from './render.js';

export default function listAccounts(app: App, deps: HttpDeps) {
  const { accounts, db } = deps;
  app.get(
    '/admin/accounts',
    {
      config: admin,
      schema: {
        tags: ['admin'],
        summary: 'List accounts',
        response: { 200: adminData(z.array(adminAccount), 'Every account'), ...adminErrors() },
      },
    },
    async () => ({ data: (await accounts.list(db)).map((a) => renderAccount(a, deps.apiTrial.access(a))) }),
  );
}
