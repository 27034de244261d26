// The command-line tool as a user runs it: a separate process, real arguments, exit codes.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { sha256File } from '../base-model/base-model.js';
import { HOUSE_MODEL_PATH } from '../corpus/paths.js';
import { modelHparams } from '../gguf/model-spec.js';
import { readGguf } from '../gguf/reader.js';
import { tempDir } from '../test/fixtures.js';
import { importVoicePackage } from '../voice/voice-package-import.js';

const BIN = fileURLToPath(new URL('../../bin/ownvoice-engine.mjs', import.meta.url));
const runFor = (timeout: number, args: string[]) =>
  spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', timeout, env: { ...process.env } });
const run = (...args: string[]) => runFor(120_000, args);

describe('ownvoice-engine', () => {
  it('prints its usage without a command', () => {
    const r = run();
    expect(r.status).toBe(0);
    expect(r.stderr).toMatch(/usage: ownvoice-engine <command>/);
  });

  it('answers --help and -h with its usage on standard output, and success', () => {
    for (const args of [['--help'], ['-h'], ['train', '--help']]) {
      const r = run(...args);
      expect(r.status, args.join(' ')).toBe(0);
      expect(r.stdout).toMatch(/^usage: ownvoice-engine <command>/);
      expect(r.stderr).toBe('');
    }
  });

  it('refuses a wrong command or option with exit code 2 and its usage on standard error', () => {
    for (const [args, why] of [
      [['bogus'], /unknown command bogus/],
      [['generate', '--bogus'], /Unknown option '--bogus'/],
      [['generate', '--prompt'], /argument missing/],
    ] as const) {
      const r = run(...args);
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(why);
      expect(r.stderr).toMatch(/usage: ownvoice-engine <command>/);
      expect(r.stdout).toBe('');
    }
  });

  it('trains a Voice into a package the server imports, and removes the passages it worked on', async () => {
    const dir = tempDir();
    try {
      // A dozen passages of the Jargon File, the house model's own kind of text; one epoch.
      const text = path.join(dir, 'writing.txt');
      writeFileSync(text, readFileSync(new URL('../../corpus/jargon.txt', import.meta.url), 'utf8').slice(0, 4000));
      const out = path.join(dir, 'voice');
      // Seconds alone; a busy machine slows it many times over, within the test's five minutes.
      const r = runFor(280_000, [
        'train',
        ...['--base', 'tiny', '--set', 'epochs=1', '--threads', '1', '--name', 'Jargon', '--out', out, '--text', text],
      ]);
      expect(r.status, r.stderr).toBe(0);
      const packagePath = JSON.parse(r.stdout).package as string;
      expect(packagePath).toBe(path.join(out, 'voice.zip'));
      // Its pairs (the person's passages and their paraphrases) and the trainer's examples are gone.
      expect(existsSync(path.join(out, 'work'))).toBe(false);

      const reply = await importVoicePackage(
        {
          packagePath,
          folder: path.join(dir, 'imported'),
          ggufName: 'voice-imported.gguf',
          base: modelHparams(readGguf(HOUSE_MODEL_PATH), HOUSE_MODEL_PATH),
          baseSha256: await sha256File(HOUSE_MODEL_PATH),
          baseModelName: 'ownvoice-tiny',
        },
        { owner: 'cli-test', bytes: statSync(packagePath).size },
      );
      expect(reply.ok, JSON.stringify(reply)).toBe(true);
      if (!reply.ok) return;
      expect(reply.manifest).toMatchObject({
        voice: { name: 'Jargon' },
        baseModel: { name: 'tiny', file: 'ownvoice-tiny.gguf', huggingFace: null },
        training: { preset: 'tiny' },
      });
      expect(reply.manifest.evaluation?.heldOut.examples).toBeGreaterThan(0);
      expect(existsSync(path.join(dir, 'imported', 'voice-imported.gguf'))).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
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
