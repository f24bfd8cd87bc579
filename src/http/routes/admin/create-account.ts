// POST /admin/accounts: a new account.
import { z } from 'zod';
import { FEATURES, PLANS } from '../../../domain/account.js';
import type { App, HttpDeps } from '../../context.js';
import { admin, adminAccount, adminData, adminErrors, renderAccount } from './render.js';

export default function createAccount(app: App, deps: HttpDeps) {
  const { accounts, db, config } = deps;
  app.post(
    '/admin/accounts',
    {
      config: admin,
      schema: {
        tags: ['admin'],
        summary: 'Create an account',
        body: z.object({
          name: z.string(),
          company_name: z.string().optional(),
          plan: z.enum(PLANS).optional(),
          features: z.array(z.enum(FEATURES)).optional(),
        }),
        // 409 the name is taken, 415 not JSON, 422 a bad name or value (400 also for a body that is not JSON).
        response: { 201: adminData(adminAccount, 'The account'), ...adminErrors(409, 415, 422) },
      },
    },
    async (req, reply) => {
      const a = await accounts.create(db, {
        name: req.body.name,
        companyName: req.body.company_name,
        plan: req.body.plan ?? config.defaultPlan,
        features: req.body.features,
      });
      return reply.code(201).send({ data: renderAccount(a, deps.apiTrial.access(a)) });
    },
  );
}
