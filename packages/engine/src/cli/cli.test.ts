// The command-line tool as a user runs it: a separate process, real arguments, exit codes.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const BIN = fileURLToPath(new URL('../../bin/ownvoice-engine.mjs', import.meta.url));
const run = (...args: string[]) =>
  spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', timeout: 120_000, env: { ...process.env } });

describe('ownvoice-engine', () => {
  it('prints its usage without a command', () => {
    const r = run();
    expect(r.status).toBe(0);
    expect(r.stderr).toMatch(/usage: ownvoice-engine <command>/);
  });

  it('generates text with the house model', () => {
    const r = run(
      'generate',
      '--base',
      'tiny',
      '--prompt',
      'And it came to pass',
      '--max-tokens',
      '20',
      '--threads',
      '2',
    );
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout.trim().split(/\s+/).length).toBeGreaterThan(5);
    expect(r.stderr).toMatch(/base model: .*ownvoice-tiny\.gguf \(house\)/);
  });

  it('explains a mistake with a non-zero exit code', () => {
    const r = run('rewrite', '--base', 'tiny');
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/rewrite needs --voice/);
    const missing = run('generate', '--base', '/nonexistent/model.gguf', '--prompt', 'x');
    expect(missing.status).toBe(1);
    expect(missing.stderr).toMatch(/does not exist/);
  });
});
