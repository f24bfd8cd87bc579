import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../../test/kit/app.js';
import { freshDatabase, type TestDatabase } from '../../test/kit/databases.js';
import { makeServices } from '../compose.js';
import { FixedClock } from '../domain/clock.js';
import { buildApp } from './app.js';
import type { App } from './context.js';

let database: TestDatabase;
let app: App;
const clock = new FixedClock();

beforeAll(async () => {
  database = await freshDatabase();
  const services = makeServices(testConfig(), database.db, { wall: clock, world: clock });
  app = await buildApp(services);
  // A route gated the way feature routes (routing, refresh…) are declared.
  app.get('/v2/gated', { config: { feature: 'routing', rateBucket: 'refresh_container' } }, async () => ({ ok: true }));
  await app.ready();
});
afterAll(async () => {
  await app.close();
  await database.drop();
});

describe('feature gates', () => {
  it('answer 403 with "not enabled" when the account lacks the feature, 200 when it has it', async () => {
    const services = makeServices(testConfig(), database.db, { wall: clock, world: clock });
    const make = async (name: string, features: ('routing' | 'refresh')[]) => {
      const a = await services.accounts.create(database.db, { name, plan: 'unlimited', features });
      return { authorization: `Token ${(await services.accounts.issueKey(database.db, a.id)).token}` };
    };
    const without = await app.inject({ url: '/v2/gated', headers: await make('no-routing', ['refresh']) });
    expect(without.statusCode).toBe(403);
    expect(without.json().errors[0]).toMatchObject({ status: '403', title: 'Forbidden' });
    expect(without.json().errors[0].detail).toMatch(/not enabled/);
    const withIt = await app.inject({ url: '/v2/gated', headers: await make('routing', ['routing']) });
    expect(withIt.statusCode).toBe(200);
  });
});
