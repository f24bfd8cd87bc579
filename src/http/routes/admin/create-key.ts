// POST /admin/accounts/{name}/keys: an API key, shown once.
import { z } from 'zod';
import { maskKey } from '../../../services/accounts.js';
import type { App, HttpDeps } from '../../context.js';
import { admin, adminData, adminErrors, adminKey, nameParam, renderKey } from './render.js';

export default function createAccountKey(app: App, deps: HttpDeps) {
  const { accounts, db } = deps;
  app.post(
    '/admin/accounts/:name/keys',
    {
      config: admin,
      schema: {
        tags: ['admin'],
        summary: 'Create an API key (shown once)',
        params: nameParam,
        // No body at all is fine (`curl -X POST` sends none, and Fastify hands the validator null).
        body: z.object({ name: z.string().max(100).optional() }).nullish(),
        response: {
          201: adminData(adminKey.extend({ key: z.string().meta({ description: 'The full key: here only' }) }), 'The key, in full'),
          ...adminErrors(404, 415, 422),
        },
      },
    },
    async (req, reply) => {
      const a = await accounts.get(db, req.params.name);
      const issued = await accounts.issueKey(db, a.id, req.body?.name ?? null);
      return reply.code(201).send({ data: { ...renderKey(maskKey(issued.key)), key: issued.token } });
    },
  );
}
