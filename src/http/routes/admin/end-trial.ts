// DELETE /admin/accounts/{name}/api_trial: ends an account's API trial now; its API keys and MCP are refused tracking
// data again (docs/api.md "Plans and the API trial"). The trial's dates are kept: the account still shows when it ended.
import type { App, HttpDeps } from '../../context.js';
import { admin, adminAccount, adminData, adminErrors, nameParam, renderAccount } from './render.js';

export default function endTrial(app: App, deps: HttpDeps) {
  app.delete(
    '/admin/accounts/:name/api_trial',
    {
      config: admin,
      schema: {
        tags: ['admin'],
        summary: 'End an account’s API trial now',
        description: 'An ended trial stays as it is. 409 for an account that never had a trial.',
        params: nameParam,
        response: { 200: adminData(adminAccount, 'The account, its trial ended'), ...adminErrors(404, 409) },
      },
    },
    async (req) => {
      const a = await deps.apiTrial.change(deps.db, deps.accounts, req.params.name, { action: 'end' });
      return { data: renderAccount(a, deps.apiTrial.access(a)) };
    },
  );
}
