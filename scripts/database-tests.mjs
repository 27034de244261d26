// The API server's test files that run on PostgreSQL as well as PGlite (vitest.config.ts): those
// that open a database, found by following their relative imports to test/test-database.ts, less
// those whose subject is not the database (SUBJECT_ELSEWHERE, and the route tests but those in
// ROUTE_TESTS_OF_THE_DATABASE). The rest (configuration, policies,
// Stripe's request shapes) open no database at all; every file runs on PGlite.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** The module every server test that opens a database reaches: PGlite or PostgreSQL, by OWNVOICE_TEST_DB. */
const TEST_DATABASE = path.join('test', 'test-database.ts');

/**
 * Tests that open a database only to stand the app up, whose subject is elsewhere: the request
 * layer (body limits and pacing, CSRF, headers, request ids), the inference process (its
 * environment, its socket, its log) and the web app's files. Their answers do not depend on the
 * database engine; they run once, on PGlite.
 */
const SUBJECT_ELSEWHERE = ['app.test.ts', 'plugins/', 'inference/', 'web-app/'];

/**
 * Route tests (under routes/) are HTTP's: status codes, schemas, cookies, who may call what. The
 * rules they reach in the database are the service and repository tests' subject, on both
 * databases, so a route test runs once, on PGlite, unless its subject is the database too:
 * money arriving by the provider's webhooks (applied once in any order, the billing simulation's
 * invariants) and requests racing each other on real connections for one last thing.
 */
const ROUTE_TESTS_OF_THE_DATABASE = [
  'routes/stripe/',
  'routes/auth/register.test.ts', // confirmations racing for the last seat of a capped beta
  'routes/api-keys/api-keys.test.ts', // keys made at once under the cap
  'routes/loras/create-voice.test.ts', // two uploads racing for the last training
  'routes/loras/voice-lifecycle.test.ts', // wakes and sleeps racing on one Voice
];

/** @param {string[]} entries @returns {(file: string) => boolean} */
const listedIn = (entries) => (file) =>
  entries.some((entry) => file === entry || (entry.endsWith('/') && file.startsWith(entry)));
const subjectElsewhere = listedIn(SUBJECT_ELSEWHERE);
const routeTestOfTheDatabase = listedIn(ROUTE_TESTS_OF_THE_DATABASE);
/** @param {string} file */
const httpOnly = (file) => file.startsWith('routes/') && !routeTestOfTheDatabase(file);

/**
 * Paths relative to `serverRoot` (apps/server) of the test files under src/ that reach
 * test-database.ts, except those that are PGlite's alone (*.pglite.test.ts), those whose subject
 * is not the database, and the route tests that are HTTP's alone.
 * @param {string} serverRoot
 * @returns {string[]}
 */
export function databaseTests(serverRoot = 'apps/server') {
  const src = path.join(serverRoot, 'src');
  const files = readdirSync(src, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
  /** @type {Map<string, string[]>} each file's relative imports, as paths under src/ */
  const imports = new Map(
    files.map((file) => {
      const source = readFileSync(path.join(src, file), 'utf8');
      const specifiers = [...source.matchAll(/(?:from|import\()\s*'(\.{1,2}\/[^']+)'/g)].map((m) => m[1] ?? '');
      return [file, specifiers.map((s) => path.join(path.dirname(file), s.replace(/\.js$/, '.ts')))];
    }),
  );
  /** @type {Map<string, boolean>} */
  const known = new Map();
  /** @param {string} file @param {Set<string>} seen @returns {boolean} */
  const opensDatabase = (file, seen) => {
    if (file === TEST_DATABASE) return true;
    const answer = known.get(file);
    if (answer !== undefined) return answer;
    if (seen.has(file)) return false;
    seen.add(file);
    const reaches = (imports.get(file) ?? []).some((dep) => opensDatabase(dep, seen));
    known.set(file, reaches);
    return reaches;
  };
  return files
    .filter((f) => f.endsWith('.test.ts') && !f.endsWith('.pglite.test.ts') && !subjectElsewhere(f) && !httpOnly(f))
    .filter((f) => opensDatabase(f, new Set()))
    .map((f) => path.join('src', f))
    .sort();
}
