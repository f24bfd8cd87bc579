// PATCH /admin/accounts/{name}/api_trial: extends an account's API trial by `days`: a running one from its end, an
// ended one from now (docs/api.md "Plans and the API trial").
import { z } from 'zod';
import type { App, HttpDeps } from '../../context.js';
import { admin, adminAccount, adminData, adminErrors, nameParam, renderAccount, trialDays } from './render.js';

export default function extendTrial(app: App, deps: HttpDeps) {
  app.patch(
    '/admin/accounts/:name/api_trial',
    {
      config: admin,
      schema: {
        tags: ['admin'],
        summary: 'Extend an account’s API trial',
        description: 'A running trial ends `days` later; an ended one runs again for `days` from now. 409 for an account without a trial.',
        params: nameParam,
        body: z.object({ days: trialDays }),
        response: { 200: adminData(adminAccount, 'The account, its trial extended'), ...adminErrors(404, 409, 415, 422) },
      },
    },
    async (req) => {
      const a = await deps.apiTrial.change(deps.db, deps.accounts, req.params.name, { action: 'extend', days: req.body.days });
      return { data: renderAccount(a, deps.apiTrial.access(a)) };
    },
  );
}
