// The examples of docs/api.md hold: its TypeScript type-checks against the `openai` package (the
// version the server's tests call /v1 with), its Python parses, and its shell commands parse. The
// two SDK examples also run against a real server, in the API journey (scripts/api-journey).
// Each TypeScript block is a module of its own, checked with the repository's strict settings.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { docBlocks as blocks, REPO } from './api-journey/doc-examples';

const run = promisify(execFile);

/** What a command wrote when it failed, or '' when it succeeded. */
async function failureOf(command: string, args: string[], input?: string): Promise<string> {
  const child = run(command, args, { cwd: REPO, maxBuffer: 16 * 1024 * 1024 });
  if (input !== undefined) child.child.stdin?.end(input);
  return child.then(
    () => '',
    (error: { stdout?: string; stderr?: string; message: string }) =>
      `${error.stdout ?? ''}${error.stderr ?? ''}` || error.message,
  );
}

// Under the repository's node_modules, so that `openai` and @types/node resolve as they do for
// the workspaces (from the folder up).
mkdirSync(path.join(REPO, 'node_modules', '.cache'), { recursive: true });
const work = mkdtempSync(path.join(REPO, 'node_modules', '.cache', 'ownvoice-api-doc-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('docs/api.md', () => {
  it('has TypeScript that type-checks against the openai package', async () => {
    const examples = blocks('ts');
    expect(examples.length).toBeGreaterThan(0);
    examples.forEach((code, i) => {
      // A module of its own (top-level await needs one), whatever the block imports.
      writeFileSync(path.join(work, `example-${i + 1}.ts`), `${code}\nexport {};\n`);
    });
    writeFileSync(
      path.join(work, 'tsconfig.json'),
      JSON.stringify({
        extends: path.join(REPO, 'tsconfig.base.json'),
        compilerOptions: { types: ['node'], noEmit: true },
        include: ['*.ts'],
      }),
    );
    expect(await failureOf(path.join(REPO, 'node_modules', '.bin', 'tsc'), ['-p', work])).toBe('');
  }, 120_000);

  it('has Python that parses', async () => {
    const examples = blocks('python');
    expect(examples.length).toBeGreaterThan(0);
    for (const code of examples) {
      expect(await failureOf('python3', ['-c', 'import ast, sys; ast.parse(sys.stdin.read())'], code)).toBe('');
    }
  });

  it('has shell commands that parse', async () => {
    const examples = blocks('sh');
    expect(examples.length).toBeGreaterThan(0);
    for (const code of examples) expect(await failureOf('bash', ['-n'], code)).toBe('');
  });
});
