// The API server's test files that run on PostgreSQL as well as PGlite (vitest.config.ts): those
// that open a database, found by following their relative imports to test/test-database.ts, less
// those whose subject is not the database (SUBJECT_ELSEWHERE). The rest (configuration, policies,
// Stripe's request shapes) open no database at all; every file runs on PGlite.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** The module every server test that opens a database reaches: PGlite or PostgreSQL, by OWNVOICE_TEST_DB. */
const TEST_DATABASE = path.join('test', 'test-database.ts');

/**
 * Tests that open a database only to stand the app up, whose subject is elsewhere: the request
 * layer (generated requests against the schemas, body limits and pacing, CSRF, headers, request
 * ids), the inference process failing, and hostile uploads. Their answers do not depend on the
 * database engine, and what they reach in it is the service tests' subject, on both; they run
 * once, on PGlite. Each saves a fresh app on PostgreSQL (the fuzzing alone, a minute).
 */
const SUBJECT_ELSEWHERE = [
  'app.test.ts',
  'plugins/',
  'routes/fuzz.test.ts',
  'routes/loras/inference-faults.test.ts',
  'routes/loras/fair-use.test.ts',
  'routes/loras/hostile-files.test.ts',
];
const subjectElsewhere = (file) =>
  SUBJECT_ELSEWHERE.some((entry) => file === entry || (entry.endsWith('/') && file.startsWith(entry)));

/**
 * Paths relative to `serverRoot` (apps/server) of the test files under src/ that reach
 * test-database.ts, except those that are PGlite's alone (*.pglite.test.ts) and those whose subject
 * is not the database.
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
    .filter((f) => f.endsWith('.test.ts') && !f.endsWith('.pglite.test.ts') && !subjectElsewhere(f))
    .filter((f) => opensDatabase(f, new Set()))
    .map((f) => path.join('src', f))
    .sort();
}
