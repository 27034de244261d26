// Prints one closing line for the whole run, "N passed, N failed", from the JSON reports of
// vitest and playwright (and any error vitest saw outside a test), so a reader (or CI) sees the total at a glance.
// Above it, each failed test by file and name with the start of its error: CI shows only the
// tail of a long log, and the runners print their failures far above it. Above that, the time
// each stage of `npm test` took (test.sh writes them, one "name<TAB>seconds[<TAB>cpu seconds]" line
// each; stages that ran beside others are marked so, and the "in all" line is the run's own wall
// time).
// Arguments: --vitest <json>, --e2e <json>, --unhandled <txt> (each as often as there were runs)
// and --stages <tsv>. A report that is missing counts as a failure: its tests did not run.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs, stripVTControlCharacters } from 'node:util';

let passed = 0;
let failed = 0;
let skipped = 0;
const failures = [];
const firstLines = (text, n = 6) =>
  stripVTControlCharacters(String(text ?? ''))
    .split('\n')
    .slice(0, n)
    .map((line) => `    ${line}`)
    .join('\n');
const { values } = parseArgs({
  options: {
    vitest: { type: 'string', multiple: true, default: [] },
    e2e: { type: 'string', multiple: true, default: [] },
    unhandled: { type: 'string', multiple: true, default: [] },
    stages: { type: 'string' },
  },
});

for (const vitestFile of values.vitest) {
  if (!existsSync(vitestFile)) {
    failed += 1;
    console.error(`no vitest report at ${vitestFile}: those unit tests did not run`);
    continue;
  }
  const r = JSON.parse(readFileSync(vitestFile, 'utf8'));
  passed += r.numPassedTests;
  failed += r.numFailedTests;
  skipped += r.numPendingTests + r.numTodoTests;
  for (const file of r.testResults ?? []) {
    const where = path.relative(process.cwd(), file.name);
    const failedTests = (file.assertionResults ?? []).filter((t) => t.status === 'failed');
    for (const t of failedTests) failures.push(`${where} › ${t.fullName}\n${firstLines(t.failureMessages?.[0])}`);
    // A file that failed before its tests ran (an import, a beforeAll) has no failed test to name.
    if (file.status === 'failed' && failedTests.length === 0) failures.push(`${where}\n${firstLines(file.message)}`);
  }
}

for (const playwrightFile of values.e2e) {
  if (!existsSync(playwrightFile)) {
    failed += 1;
    console.error(`no playwright report at ${playwrightFile}: those end-to-end tests did not run`);
    continue;
  }
  const report = JSON.parse(readFileSync(playwrightFile, 'utf8'));
  const s = report.stats;
  passed += s.expected;
  failed += s.unexpected + s.flaky;
  skipped += s.skipped;
  const walk = (suite, titles) => {
    for (const child of suite.suites ?? []) walk(child, [...titles, child.title]);
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        if (test.status !== 'unexpected' && test.status !== 'flaky') continue;
        const error = test.results?.find((r) => r.error)?.error;
        failures.push(
          `${spec.file}:${spec.line} › ${[...titles, spec.title].filter(Boolean).join(' › ')} (${test.status})\n${firstLines(error?.message)}`,
        );
      }
    }
  };
  for (const suite of report.suites ?? []) walk(suite, []);
}

// Errors outside any test fail the run too; print them here, at the end, where they are seen.
for (const unhandledFile of values.unhandled) {
  if (!existsSync(unhandledFile)) continue;
  failed += 1;
  console.error(`vitest saw errors outside any test:\n${readFileSync(unhandledFile, 'utf8')}`);
}

if (values.stages && existsSync(values.stages)) {
  const stages = readFileSync(values.stages, 'utf8')
    .trim()
    .split('\n')
    .map((line) => line.split('\t'));
  const clock = (seconds) => `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
  // A stage run by itself also has its CPU time (all its processes, in core-minutes).
  console.log('Time by stage (wall, and CPU where measured):');
  for (const [name, seconds, cpu] of stages) {
    const used = cpu === undefined ? '' : `cpu ${clock(Number(cpu))}`;
    console.log(`  ${clock(Number(seconds)).padStart(6)}  ${used.padEnd(10)}  ${name}`);
  }
}

if (failures.length) console.log(`Failed:\n${failures.map((f) => `  ${f}`).join('\n')}`);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
