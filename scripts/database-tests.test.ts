// Which server tests run on PostgreSQL as well as PGlite: those that open a database, however
// many helpers lie between them and test-database.ts; none that do not.
import { describe, expect, it } from 'vitest';
import { databaseTests } from './database-tests.mjs';

describe('the server tests that run on PostgreSQL too', () => {
  const onPostgres = databaseTests();

  it('include every test that opens a database, directly or through a helper', () => {
    expect(onPostgres).toContain('src/repositories/stamped-time.test.ts'); // test-database.ts itself
    expect(onPostgres).toContain('src/services/usage.service.test.ts'); // through service-context.ts
    expect(onPostgres).toContain('src/routes/loras/voice-lifecycle.test.ts'); // through quick-voice.ts and test-app.ts
    expect(onPostgres).toContain('src/jobs/job-queue.test.ts');
  });

  it('leave out the tests that open none, those about the request layer, and those that are PGlite’s alone', () => {
    for (const none of ['src/config.test.ts', 'src/policies/admin-policy.test.ts', 'src/plugins/body-pace.test.ts']) {
      expect(onPostgres).not.toContain(none);
    }
    const elsewhere = ['src/inference/supervisor.test.ts', 'src/web-app/serve-web-app.test.ts'];
    for (const http of [
      'src/routes/fuzz.test.ts',
      'src/plugins/http-limits.test.ts',
      'src/app.test.ts',
      ...elsewhere,
    ]) {
      expect(onPostgres).not.toContain(http);
    }
    // A route test is HTTP's: what it reaches in the database is a service test's subject, on both.
    for (const http of ['src/routes/auth/email.test.ts', 'src/routes/content/content.test.ts']) {
      expect(onPostgres).not.toContain(http);
    }
    expect(onPostgres).toContain('src/services/auth.service.test.ts');
    expect(onPostgres.filter((f) => f.endsWith('.pglite.test.ts'))).toEqual([]);
  });

  it('keep the route tests whose subject is the database too: money by webhook, and races', () => {
    // Two tabs paying at once, and webhooks in any order, race on real connections.
    expect(onPostgres).toContain('src/routes/stripe/billing-simulation.test.ts');
    expect(onPostgres).toContain('src/routes/stripe/webhook.test.ts');
    expect(onPostgres).toContain('src/routes/loras/create-voice.test.ts');
  });
});
