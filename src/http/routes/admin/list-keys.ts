// GET /admin/accounts/{name}/keys: an account's API keys (masked).
import type { App, HttpDeps } from '../../context.js';
import { z } from 'zod';
import { admin, adminData, adminErrors, adminKey, nameParam, renderKey } from './render.js';

export default function listAccountKeys(app: App, deps: HttpDeps) {
  const { accounts, db } = deps;
  app.get(
    '/admin/accounts/:name/keys',
    {
      config: admin,
      schema: {
        tags: ['admin'],
        summary: 'List an account’s API keys (masked)',
        params: nameParam,
        response: { 200: adminData(z.array(adminKey), 'Every key of the account, revoked ones too'), ...adminErrors(404) },
      },
    },
    async (req) => {
      const a = await accounts.get(db, req.params.name);
      return { data: (await accounts.listKeys(db, a.id)).map(renderKey) };
    },
  );
}
