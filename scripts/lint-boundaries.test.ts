// The import boundaries of biome.json, shown to hold: each forbidden import below fails lint with
// the message that says where the code belongs, and each allowed one passes. The files are written
// into a scratch copy of the repository's layout with the real biome.json, and linted in one run.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIOME_JSON, boundaryOverrides, RANKED, unrankedFolders } from './import-boundaries.mjs';

const REPO = path.resolve(import.meta.dirname, '..');
const BIOME = path.join(REPO, 'node_modules', '.bin', 'biome');

interface Diagnostic {
  category: string;
  message: string;
  location: { path: string };
}

/** [file, what it imports, the words its refusal must hold]. */
const refused: [string, string, string][] = [
  ['apps/web/src/app/engine.ts', '@ownvoice/engine', 'reaches the server only over HTTP'],
  ['apps/web/src/features/plans/engine.ts', '@ownvoice/engine', 'reaches the server only over HTTP'],
  ['apps/web/src/lib/server.ts', '@ownvoice/server', 'reaches the server only over HTTP'],
  ['apps/web/src/components/engine.ts', '../../../../packages/engine/src/index.js', 'only over HTTP'],
  ['apps/web/src/features/plans/other.ts', '../voices/api', 'A feature imports only its own files'],
  ['apps/web/src/features/plans/components/helper.tsx', '../../../test/render', 'A feature imports only its own files'],
  ['apps/web/src/features/plans/components/other.test.tsx', '../../voices/api', 'A feature imports only its own files'],
  ['apps/server/src/routes/loras/repo.ts', '../../repositories/voices.repository.js', 'A route speaks HTTP'],
  ['apps/server/src/routes/db.ts', '../db/schema.js', 'A route speaks HTTP'],
  ['apps/server/src/services/route.ts', '../routes/loras/loras.routes.js', 'a service never imports a route'],
  ['apps/server/src/plugins/route.ts', '../routes/loras/loras.schemas.js', 'Plugins are the request hooks'],
  ['apps/server/src/repositories/service.ts', '../services/index.js', 'Repositories sit below'],
  ['apps/server/src/repositories/worker.ts', '../workers/training-worker.js', 'repositories/ may not import this'],
  ['apps/server/src/mail/service.ts', '../services/index.js', 'Server folders import only folders below them'],
  ['apps/server/src/db/repo.ts', '../repositories/users.repository.js', 'db/ may not import this'],
  ['apps/server/src/services/billing/worker.ts', '../../workers/training-worker.js', 'services/ may not import this'],
  ['apps/server/src/workers/plugin.ts', '../plugins/authenticate.js', 'workers/ may not import this'],
  ['apps/server/src/services/app.ts', '../app.js', 'services/ may not import this'],
  ['apps/server/src/services/helper.ts', '../test/service-context.js', 'services/ may not import this'],
  ['apps/server/src/inference/new.ts', '../newfolder/thing.js', 'inference/ may not import this'],
  ['packages/engine/src/text/up.ts', '../voice/rewrite.js', 'Engine folders import only folders below them'],
  ['packages/engine/src/gguf/up.ts', '../tokenizer/byte-level.js', 'gguf/ may not import this'],
  ['packages/engine/src/runtime/side.ts', '../trainer/python.js', 'runtime/ may not import this'],
  ['packages/engine/src/voice/index.ts', '../index.js', 'voice/ may not import this'],
  ['packages/engine/src/text/new.ts', '../newfolder/thing.js', 'text/ may not import this'],
  ['packages/engine/src/voice/fixtures.ts', '../test/fixtures.js', 'voice/ may not import this'],
  ['packages/engine/src/seeded.ts', './gguf/reader.js', 'root modules sit below every folder'],
  ['packages/engine/src/voice/server.ts', '@ownvoice/server', 'The engine imports only @ownvoice/shared'],
  ['packages/engine/bench/web.ts', '@ownvoice/web/src/main', 'The engine imports only @ownvoice/shared'],
  ['packages/shared/src/engine.ts', '@ownvoice/engine', 'sits below every workspace'],
  ['apps/server/src/inference/host.ts', '@ownvoice/inference', 'over HTTP (inference/)'],
  ['apps/server/src/routes/loras/inference.ts', '../../../../inference/src/main.js', 'over HTTP (inference/)'],
  ['apps/inference/src/server.ts', '@ownvoice/server', 'never the API server'],
];

/** [file, what it imports]: allowed. */
const allowed: [string, string][] = [
  ['apps/web/src/features/plans/components/page.test.tsx', '../../../test/render'],
  ['apps/web/src/features/plans/lib.ts', '../../lib/api'],
  ['apps/server/src/routes/loras/service.ts', '../../services/index.js'],
  ['apps/server/src/routes/loras/rows.test.ts', '../../db/schema.js'],
  ['apps/server/src/services/repo.ts', '../repositories/users.repository.js'],
  ['apps/server/src/engine.ts', '@ownvoice/engine'],
  ['apps/server/src/workers/service.ts', '../services/usage.service.js'],
  ['apps/server/src/services/billing/pay.ts', '../../payments/provider.js'],
  ['apps/server/src/inference/clock.ts', '../clock.js'],
  ['apps/server/src/services/helper.test.ts', '../test/service-context.js'],
  ['packages/engine/src/voice/seeded.ts', '../seeded-random.js'],
  ['packages/engine/src/voice/down.ts', '../text/passages.js'],
  ['packages/engine/src/trainer/up.test.ts', '../house-model/build.js'],
];

const cases = [
  ...refused.map(([file, from, message]) => ({ file, from, message })),
  ...allowed.map(([file, from]) => ({ file, from, message: null })),
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

describe('every folder has a rank', () => {
  it.each(Object.entries(RANKED))('in the %s', (_, table) => {
    const missing = unrankedFolders(path.join(REPO, table.root), table);
    const where = missing.map((folder) => `${table.root}/${folder}/`).join(', ');
    expect(missing, `${where} has no rank: add it to ${table.name} in scripts/import-boundaries.mjs`).toEqual([]);
  });

  it('names a folder missing from the table', () => {
    const root = mkdtempSync(path.join(tmpdir(), 'ownvoice-ranks-'));
    try {
      for (const folder of [...RANKED.engine.ranks.flat(), 'test', 'newfolder']) mkdirSync(path.join(root, folder));
      writeFileSync(path.join(root, 'index.ts'), '');
      expect(unrankedFolders(root, RANKED.engine)).toEqual(['newfolder']);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
