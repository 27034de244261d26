// Prints one closing line for the whole run, "N passed, N failed", from the JSON reports of
// vitest and playwright (and any error vitest saw outside a test), so a reader (or CI) sees the total at a glance.
import { existsSync, readFileSync } from 'node:fs';

let passed = 0;
let failed = 0;
let skipped = 0;
const [vitestFile, playwrightFile, unhandledFile] = process.argv.slice(2);

if (vitestFile && existsSync(vitestFile)) {
  const r = JSON.parse(readFileSync(vitestFile, 'utf8'));
  passed += r.numPassedTests;
  failed += r.numFailedTests;
  skipped += r.numPendingTests + r.numTodoTests;
} else {
  failed += 1;
  console.error('no vitest report: the unit tests did not run');
}

if (playwrightFile && existsSync(playwrightFile)) {
  const s = JSON.parse(readFileSync(playwrightFile, 'utf8')).stats;
  passed += s.expected;
  failed += s.unexpected + s.flaky;
  skipped += s.skipped;
} else {
  failed += 1;
  console.error('no playwright report: the end-to-end tests did not run');
}

// Errors outside any test fail the run too; print them here, at the end, where they are seen.
if (unhandledFile && existsSync(unhandledFile)) {
  failed += 1;
  console.error(`vitest saw errors outside any test:\n${readFileSync(unhandledFile, 'utf8')}`);
}

console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
