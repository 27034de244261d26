// The import boundaries of biome.json, shown to hold: each forbidden import below fails lint with
// the message that says where the code belongs, and each allowed one passes. The files are written
// into a scratch copy of the repository's layout with the real biome.json, and linted in one run.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIOME_JSON, boundaryOverrides } from './import-boundaries.mjs';

const REPO = path.resolve(import.meta.dirname, '..');
const BIOME = path.join(REPO, 'node_modules', '.bin', 'biome');

interface Diagnostic {
  category: string;
  message: string;
  location: { path: string };
}

/** A file that imports `from`: refused with `message`, or allowed when `message` is null. */
const cases: { file: string; from: string; message: string | null }[] = [
  { file: 'apps/web/src/app/engine.ts', from: '@ownvoice/engine', message: 'reaches the server only over HTTP' },
  {
    file: 'apps/web/src/features/plans/engine.ts',
    from: '@ownvoice/engine',
    message: 'reaches the server only over HTTP',
  },
  { file: 'apps/web/src/lib/server.ts', from: '@ownvoice/server', message: 'reaches the server only over HTTP' },
  {
    file: 'apps/web/src/components/engine.ts',
    from: '../../../../packages/engine/src/index.js',
    message: 'only over HTTP',
  },
  {
    file: 'apps/web/src/features/plans/other.ts',
    from: '../voices/api',
    message: 'A feature imports only its own files',
  },
  { file: 'apps/web/src/features/plans/lib.ts', from: '../../lib/api', message: null },
  {
    file: 'apps/server/src/routes/loras/repo.ts',
    from: '../../repositories/voices.repository.js',
    message: 'A route speaks HTTP',
  },
  { file: 'apps/server/src/routes/db.ts', from: '../db/schema.js', message: 'A route speaks HTTP' },
  { file: 'apps/server/src/routes/loras/service.ts', from: '../../services/index.js', message: null },
  { file: 'apps/server/src/routes/loras/rows.test.ts', from: '../../db/schema.js', message: null },
  {
    file: 'apps/server/src/services/route.ts',
    from: '../routes/loras/loras.routes.js',
    message: 'a service never imports a route',
  },
  {
    file: 'apps/server/src/plugins/route.ts',
    from: '../routes/loras/loras.schemas.js',
    message: 'Plugins are the request hooks',
  },
  { file: 'apps/server/src/repositories/service.ts', from: '../services/index.js', message: 'Repositories sit below' },
  { file: 'apps/server/src/services/repo.ts', from: '../repositories/users.repository.js', message: null },
  {
    file: 'packages/engine/src/text/up.ts',
    from: '../voice/rewrite.js',
    message: 'Engine folders import only folders below them',
  },
  { file: 'packages/engine/src/gguf/up.ts', from: '../tokenizer/byte-level.js', message: 'gguf/ may not import this' },
  {
    file: 'packages/engine/src/runtime/side.ts',
    from: '../trainer/python.js',
    message: 'runtime/ may not import this',
  },
  { file: 'packages/engine/src/voice/index.ts', from: '../index.js', message: 'voice/ may not import this' },
  { file: 'packages/engine/src/seeded.ts', from: './gguf/reader.js', message: 'root modules sit below every folder' },
  {
    file: 'packages/engine/src/voice/server.ts',
    from: '@ownvoice/server',
    message: 'The engine imports only @ownvoice/shared',
  },
  {
    file: 'packages/engine/bench/web.ts',
    from: '@ownvoice/web/src/main',
    message: 'The engine imports only @ownvoice/shared',
  },
  { file: 'packages/shared/src/engine.ts', from: '@ownvoice/engine', message: 'sits below every workspace' },
  { file: 'apps/server/src/inference/host.ts', from: '@ownvoice/inference', message: 'over HTTP (inference/)' },
  {
    file: 'apps/server/src/routes/loras/inference.ts',
    from: '../../../../inference/src/main.js',
    message: 'over HTTP (inference/)',
  },
  { file: 'apps/inference/src/server.ts', from: '@ownvoice/server', message: 'never the API server' },
  { file: 'apps/server/src/engine.ts', from: '@ownvoice/engine', message: null },
  { file: 'packages/engine/src/voice/down.ts', from: '../text/passages.js', message: null },
  { file: 'packages/engine/src/trainer/up.test.ts', from: '../house-model/build.js', message: null },
];

let dir = '';
let found: Diagnostic[] = [];

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'ownvoice-boundaries-'));
  const config = JSON.parse(readFileSync(path.join(REPO, 'biome.json'), 'utf8'));
  delete config.$schema;
  config.vcs = { enabled: false };
  const write = (file: string, text: string) => {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  };
  write('biome.json', JSON.stringify(config));
  for (const c of cases) write(c.file, `import * as m from '${c.from}';\n\nexport const n = m;\n`);
  // Two modules that import each other: a circle, whatever their folder.
  write('packages/engine/src/chunking/ring-a.ts', "import { b } from './ring-b.js';\n\nexport const a = () => b;\n");
  write('packages/engine/src/chunking/ring-b.ts', "import { a } from './ring-a.js';\n\nexport const b = () => a;\n");
  let out: string;
  try {
    out = execFileSync(BIOME, ['lint', '--reporter=json', '--max-diagnostics=none', '.'], {
      cwd: dir,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
  } catch (error) {
    out = (error as { stdout: string }).stdout; // lint exits non-zero when it finds something
  }
  found = (JSON.parse(out) as { diagnostics: Diagnostic[] }).diagnostics;
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

const importsIn = (file: string) =>
  found.filter((d) => d.location.path === file && d.category === 'lint/style/noRestrictedImports');

describe('import boundaries (biome.json)', () => {
  it.each(cases)('$file importing $from', ({ file, message }) => {
    const diagnostics = importsIn(file);
    if (message === null) expect(diagnostics).toEqual([]);
    else expect(diagnostics.map((d) => d.message).join('\n')).toContain(message);
  });

  it('biome.json holds the table of scripts/import-boundaries.mjs (run it after changing the table)', () => {
    expect(JSON.parse(readFileSync(BIOME_JSON, 'utf8')).overrides).toEqual(boundaryOverrides());
  });

  it('refuses an import cycle', () => {
    const cycles = found.filter((d) => d.category === 'lint/suspicious/noImportCycles').map((d) => d.location.path);
    expect(cycles).toEqual(
      expect.arrayContaining(['packages/engine/src/chunking/ring-a.ts', 'packages/engine/src/chunking/ring-b.ts']),
    );
  });
});
