// PATCH /admin/accounts/{name}: an account's plan, features or rate limits, and the first-account mark (the API trial).
import { z } from 'zod';
import { FEATURES, PLANS, RATE_BUCKETS } from '../../../domain/account.js';
import type { App, HttpDeps } from '../../context.js';
import { admin, adminAccount, adminData, adminErrors, nameParam, renderAccount } from './render.js';

export default function updateAccount(app: App, deps: HttpDeps) {
  const { accounts, db } = deps;
  app.patch(
    '/admin/accounts/:name',
    {
      config: admin,
      schema: {
        tags: ['admin'],
        summary: 'Change an account’s plan, features or rate limits, or make it the first account',
        params: nameParam,
        body: z.object({
          plan: z.enum(PLANS).optional(),
          features: z.array(z.enum(FEATURES)).optional().describe('features to enable'),
          disable_features: z.array(z.enum(FEATURES)).optional(),
          rate_limits: z.partialRecord(z.enum(RATE_BUCKETS), z.number().int().min(1).max(1_000_000)).optional(),
          first_account: z
            .literal(true)
            .optional()
            .describe(
              "true: this becomes the operator's first account, never gated by the API trial; the mark moves from the account that held it (gated from then on when it is free)",
            ),
        }),
        response: { 200: adminData(adminAccount, 'The account as changed'), ...adminErrors(404, 415, 422) },
      },
    },
    async (req) => {
      const a = await db.transaction(async (tx) => {
        const updated = await accounts.update(tx, req.params.name, {
          plan: req.body.plan,
          enable: req.body.features,
          disable: req.body.disable_features,
          rateLimits: req.body.rate_limits,
        });
        return req.body.first_account ? deps.apiTrial.markFirstAccount(tx, accounts, updated.id) : updated;
      });
      return { data: renderAccount(a, deps.apiTrial.access(a)) };
    },
  );
}
