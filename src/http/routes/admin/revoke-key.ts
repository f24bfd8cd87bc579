// DELETE /admin/keys/{id}: an API key stops working.
import type { App, HttpDeps } from '../../context.js';
import { idParams } from '../../schemas.js';
import { admin, adminData, adminErrors, adminKey, renderKey } from './render.js';

export default function revokeKey(app: App, deps: HttpDeps) {
  const { accounts, db } = deps;
  app.delete(
    '/admin/keys/:id',
    {
      config: admin,
      schema: {
        tags: ['admin'],
        summary: 'Revoke an API key',
        params: idParams,
        // A body is parsed even here: 415 another media type, 422 text PostgreSQL cannot store.
        response: { 200: adminData(adminKey, 'The key, revoked'), ...adminErrors(404, 415, 422) },
      },
    },
    async (req) => ({ data: renderKey(await accounts.revokeKey(db, req.params.id)) }),
  );
}
