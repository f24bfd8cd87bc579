// Operator API under /admin (admin token): the same operations as the `tidemark accounts|keys` commands,
// usable while the server holds the PGlite data directory.
import { z } from 'zod';
import { FEATURES, PLANS, RATE_BUCKETS, type Account } from '../../../domain/account.js';
import { maskKey, type MaskedKey } from '../../../services/accounts.js';
import type { App, HttpDeps } from '../../context.js';

const renderAccount = (a: Account) => ({
  id: a.id,
  name: a.name,
  company_name: a.companyName,
  plan: a.plan,
  features: a.features,
  rate_limits: a.rateLimits,
  created_at: a.createdAt.toISOString(),
});

const renderKey = (k: MaskedKey) => ({
  id: k.id,
  account_id: k.accountId,
  name: k.name,
  masked: k.masked,
  created_at: k.createdAt.toISOString(),
  last_used_at: k.lastUsedAt?.toISOString() ?? null,
  revoked_at: k.revokedAt?.toISOString() ?? null,
});

const admin = { auth: 'admin' as const };
const nameParam = z.object({ name: z.string().min(1) });

export default function adminAccounts(app: App, deps: HttpDeps) {
  const { accounts, db, config } = deps;

  app.get('/admin/accounts', { config: admin, schema: { tags: ['admin'], summary: 'List accounts' } }, async () => ({
    data: (await accounts.list(db)).map(renderAccount),
  }));

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
      },
    },
    async (req, reply) => {
      const a = await accounts.create(db, {
        name: req.body.name,
        companyName: req.body.company_name,
        plan: req.body.plan ?? config.defaultPlan,
        features: req.body.features,
      });
      return reply.code(201).send({ data: renderAccount(a) });
    },
  );

  app.patch(
    '/admin/accounts/:name',
    {
      config: admin,
      schema: {
        tags: ['admin'],
        summary: 'Change an account’s plan, features or rate limits',
        params: nameParam,
        body: z.object({
          plan: z.enum(PLANS).optional(),
          features: z.array(z.enum(FEATURES)).optional().describe('features to enable'),
          disable_features: z.array(z.enum(FEATURES)).optional(),
          rate_limits: z.partialRecord(z.enum(RATE_BUCKETS), z.number().int().min(1).max(1_000_000)).optional(),
        }),
      },
    },
    async (req) => {
      const a = await accounts.update(db, req.params.name, {
        plan: req.body.plan,
        enable: req.body.features,
        disable: req.body.disable_features,
        rateLimits: req.body.rate_limits,
      });
      return { data: renderAccount(a) };
    },
  );

  app.get(
    '/admin/accounts/:name/keys',
    { config: admin, schema: { tags: ['admin'], summary: 'List an account’s API keys (masked)', params: nameParam } },
    async (req) => {
      const a = await accounts.get(db, req.params.name);
      return { data: (await accounts.listKeys(db, a.id)).map(renderKey) };
    },
  );

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
      },
    },
    async (req, reply) => {
      const a = await accounts.get(db, req.params.name);
      const issued = await accounts.issueKey(db, a.id, req.body?.name ?? null);
      return reply.code(201).send({ data: { ...renderKey(maskKey(issued.key)), key: issued.token } });
    },
  );

  app.delete(
    '/admin/keys/:id',
    { config: admin, schema: { tags: ['admin'], summary: 'Revoke an API key', params: z.object({ id: z.string() }) } },
    async (req) => ({ data: renderKey(await accounts.revokeKey(db, req.params.id)) }),
  );

  app.post(
    '/admin/password_resets',
    {
      config: admin,
      schema: {
        tags: ['admin'],
        summary: "A one-time link to set a user's password",
        description:
          'Plain JSON `{"email": …}` → 201 `{"url": …, "emailed": bool}`: a link, valid 24 hours, to the web app page that sets a new password (also e-mailed to the user when TIDEMARK_SMTP_URL is set).',
        body: z.object({ email: z.string().min(1) }).strict(),
      },
    },
    async (req, reply) => reply.code(201).send(await deps.users.resetLinkForEmail(req.body.email)),
  );
}
