// A vitest reporter that writes the run's unhandled errors (thrown outside any test: a stray
// promise rejection, an error event nobody listens to) to a file, so the closing summary of
// `npm test` can print them where CI's tail shows them. The default reporter prints them too,
// but far up in a long log.
import { writeFileSync } from 'node:fs';

export default class UnhandledErrorsReporter {
  constructor(options = {}) {
    // Two vitest runs at once (scripts/test.sh) each name their own file.
    this.file =
      options.outputFile ?? process.env.OWNVOICE_UNHANDLED_ERRORS_FILE ?? '.test-results/vitest-unhandled-errors.txt';
  }

  onTestRunEnd(_modules, unhandledErrors) {
    if (!unhandledErrors?.length) return;
    const text = unhandledErrors
      .map((e, i) => {
        const where = e.VITEST_TEST_PATH ? ` (while running ${e.VITEST_TEST_PATH})` : '';
        return `#${i + 1}${where}\n${e.name ?? 'Error'}: ${e.message}\n${e.stack ?? ''}`;
      })
      .join('\n\n');
    writeFileSync(this.file, `${text}\n`);
  }
}
