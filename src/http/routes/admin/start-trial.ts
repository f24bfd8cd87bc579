// POST /admin/accounts/{name}/api_trial: starts a free account's API trial (7 days unless `days` says otherwise), so
// that its API keys and MCP may read tracking data (docs/api.md "Plans and the API trial").
import { z } from 'zod';
import { DEFAULT_TRIAL_DAYS } from '../../../domain/api-trial.js';
import type { App, HttpDeps } from '../../context.js';
import { admin, adminAccount, adminData, adminErrors, nameParam, renderAccount, trialDays } from './render.js';

export default function startTrial(app: App, deps: HttpDeps) {
  app.post(
    '/admin/accounts/:name/api_trial',
    {
      config: admin,
      schema: {
        tags: ['admin'],
        summary: 'Start an account’s API trial',
        description: `From now, for \`days\` (default ${DEFAULT_TRIAL_DAYS}). 409 while a trial runs (extend it instead), and for an account whose reads are never gated (the unlimited plan, the operator’s first account).`,
        params: nameParam,
        // No body at all is fine (`curl -X POST` sends none, and Fastify hands the validator null).
        body: z.object({ days: trialDays.optional() }).nullish(),
        response: { 200: adminData(adminAccount, 'The account, its trial started'), ...adminErrors(404, 409, 415, 422) },
      },
    },
    async (req) => {
      const a = await deps.apiTrial.change(deps.db, deps.accounts, req.params.name, {
        action: 'start',
        days: req.body?.days ?? DEFAULT_TRIAL_DAYS,
      });
      return { data: renderAccount(a, deps.apiTrial.access(a)) };
    },
  );
}
