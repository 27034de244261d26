// The one table of who may import what, written into biome.json's `overrides` (run
// `node scripts/import-boundaries.mjs` after changing it; scripts/lint-boundaries.test.ts checks
// that biome.json matches and that each rule refuses what it should). Biome keeps only the last
// matching override's options for a rule, so every file gets exactly one override that carries
// its workspace's rule and its folder's rule together.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** A workspace by its name, or by a relative path into its folder. */
const pkg = (names) => names.flatMap((n) => [`@ownvoice/${n}`, `@ownvoice/${n}/**`, `**/${n}/src/**`]);
const acrossWorkspaces = ['**/apps/**', '**/packages/**'];

/** Per workspace: what it may never import (the workspaces above it, or beside it over HTTP). */
const WORKSPACES = {
  web: {
    root: 'apps/web/src',
    group: [...pkg(['engine', 'server', 'inference']), ...acrossWorkspaces],
    message:
      'The web app runs in the browser and reaches the server only over HTTP (src/lib/api). Rules both sides need belong in @ownvoice/shared.',
  },
  server: {
    root: 'apps/server/src',
    group: [...pkg(['web', 'inference']), ...acrossWorkspaces],
    message:
      'The API server imports @ownvoice/shared and @ownvoice/engine by name only; it reaches the inference server over HTTP (inference/).',
  },
  inference: {
    root: 'apps/inference/src',
    group: [...pkg(['web', 'server']), ...acrossWorkspaces],
    message:
      'The inference server imports @ownvoice/shared and @ownvoice/engine by name only, never the API server or the web app.',
  },
  engine: {
    root: 'packages/engine',
    group: [...pkg(['web', 'server', 'inference']), ...acrossWorkspaces],
    message:
      'The engine imports only @ownvoice/shared: it must work without the server (the command line, the inference server).',
  },
  shared: {
    root: 'packages/shared',
    group: [...pkg(['web', 'server', 'inference', 'engine']), ...acrossWorkspaces],
    message: '@ownvoice/shared sits below every workspace and imports none of them.',
  },
};

const FEATURE =
  'A feature imports only its own files, src/lib and src/components: never app/ or another feature. Move what two features share into src/lib (logic, hooks) or src/components (UI).';

/** The engine's folders by rank: a folder imports only folders of a lower rank (docs/architecture.md). */
export const ENGINE_RANKS = [
  ['gguf', 'chunking', 'corpus', 'isolation'],
  ['tokenizer', 'base-model', 'runtime', 'trainer', 'adapters', 'text', 'eval'],
  ['voice'],
  ['house-model', 'harness'],
  ['cli'],
];
const ENGINE_ORDER =
  'cli → {house-model, harness} → voice → {text, eval, runtime, trainer, adapters, tokenizer, base-model} → {gguf, chunking, corpus, isolation} → the root modules';

/** Folder rules: [workspace, includes, pattern groups] — tests (*.test.ts) are exempt from folder rules. */
function folderRules() {
  // A feature's tests may also use the web app's test helpers (src/test); its code may not.
  const web = [1, 2, 3].flatMap((depth) => {
    const up = '../'.repeat(depth);
    const files = `apps/web/src/features/*/${'*/'.repeat(depth - 1)}`;
    const allowed = [`${up}**`, `!${up}../lib/**`, `!${up}../components/**`];
    const tests = [`${files}*.test.ts`, `${files}*.test.tsx`];
    return [
      ['web', [`${files}*.ts`, `${files}*.tsx`, ...tests.map((t) => `!${t}`)], [{ group: allowed, message: FEATURE }]],
      ['web', tests, [{ group: [...allowed, `!${up}../test/**`], message: FEATURE }]],
    ];
  });
  const webBelow = [
    'web',
    ['apps/web/src/lib/**', 'apps/web/src/components/**'],
    [
      {
        group: ['**/app/**', '**/features/**'],
        message: 'src/lib and src/components sit below the pages: they never import app/ or a feature.',
      },
    ],
  ];
  const server = [
    [
      'routes',
      ['**/repositories/**', '**/db/**'],
      "A route speaks HTTP and calls services; it never reads the database. Put the query in a repository (src/repositories) behind a service (src/services), and import the service's own types.",
    ],
    [
      'plugins',
      ['**/routes/**'],
      'Plugins are the request hooks every route runs behind: they sit below the routes and never import one. What describes the routes (the API document) belongs with them in routes/.',
    ],
    [
      'services',
      ['**/routes/**'],
      'Services sit below the routes: a service never imports a route. Move what both need into the service, and let the route call it.',
    ],
    [
      'repositories',
      ['**/routes/**', '**/services/**'],
      'Repositories sit below services and routes: they read and write rows and never import either. Move the rule that needs them into a service.',
    ],
  ].map(([folder, group, message]) => [
    'server',
    [`apps/server/src/${folder}/**`, '!**/*.test.ts'],
    [{ group, message }],
  ]);
  const engine = ENGINE_RANKS.flatMap((folders, rank) =>
    folders.map((folder) => {
      const above = ENGINE_RANKS.slice(rank)
        .flat()
        .filter((f) => f !== folder);
      const message = `Engine folders import only folders below them (${ENGINE_ORDER}); ${folder}/ may not import this. Move what both need down, or the caller up.`;
      return [
        'engine',
        [`packages/engine/src/${folder}/**`, '!**/*.test.ts'],
        [{ group: [...above.map((f) => `../${f}/**`), '../index.js'], message }],
      ];
    }),
  );
  const engineRoot = [
    'engine',
    ['packages/engine/src/*.ts', '!packages/engine/src/index.ts', '!**/*.test.ts'],
    [
      {
        group: ['./**'],
        message: `The engine's root modules sit below every folder (${ENGINE_ORDER}); they import none.`,
      },
    ],
  ];
  return [...web, webBelow, ...server, ...engine, engineRoot];
}

const restricted = (patterns) => ({
  linter: { rules: { style: { noRestrictedImports: { level: 'error', options: { patterns } } } } },
});

/** biome.json's overrides: each workspace's rule alone, then each folder's rule with its workspace's. */
export function boundaryOverrides() {
  const workspaceRule = (name) => ({ group: WORKSPACES[name].group, message: WORKSPACES[name].message });
  const own = Object.keys(WORKSPACES).map((name) => ({
    includes: [`${WORKSPACES[name].root}/**`],
    ...restricted([workspaceRule(name)]),
  }));
  const folders = folderRules().map(([name, includes, patterns]) => ({
    includes,
    ...restricted([...patterns, workspaceRule(name)]),
  }));
  return [...own, ...folders];
}

const here = path.dirname(fileURLToPath(import.meta.url));
export const BIOME_JSON = path.join(here, '..', 'biome.json');

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const config = JSON.parse(readFileSync(BIOME_JSON, 'utf8'));
  config.overrides = boundaryOverrides();
  writeFileSync(BIOME_JSON, `${JSON.stringify(config, null, 2)}\n`);
}
