// The one table of who may import what, written into biome.json's `overrides` (run
// `node scripts/import-boundaries.mjs` after changing it; scripts/lint-boundaries.test.ts checks
// that biome.json matches and that each rule refuses what it should). Biome keeps only the last
// matching override's options for a rule, so every file gets exactly one override that carries
// its workspace's rule and its folder's rule together.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
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

/** The API server's folders by rank, read off what they import (docs/architecture.md). */
export const SERVER_RANKS = [
  ['security', 'storage', 'mail', 'jobs', 'engine', 'web-app'],
  ['db', 'inference'],
  ['repositories', 'policies'],
  ['payments'],
  ['services'],
  ['plugins', 'workers'],
  ['routes'],
];

/**
 * The folders each ranked workspace holds. test/ holds helpers that only tests import: like the
 * tests it sits outside the ranks, and a ranked folder's code may not import it.
 */
export const RANKED = {
  engine: { root: 'packages/engine/src', ranks: ENGINE_RANKS, unranked: ['test'], name: 'ENGINE_RANKS', depth: 1 },
  server: { root: 'apps/server/src', ranks: SERVER_RANKS, unranked: ['test'], name: 'SERVER_RANKS', depth: 2 },
};

/** The folders of `root` that neither have a rank nor are known to sit outside the ranks. */
export function unrankedFolders(root, { ranks, unranked }) {
  const known = new Set([...ranks.flat(), ...unranked]);
  return readdirSync(root, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !known.has(entry.name))
    .map((entry) => entry.name);
}

/** The ranks top down, as the messages print them: cli → {house-model, harness} → … */
const rankOrder = (ranks) =>
  ranks
    .toReversed()
    .map((folders) => (folders.length > 1 ? `{${folders.join(', ')}}` : folders[0]))
    .join(' → ');

/** Server folders with their own word for some folders they never import, before the ranked one. */
const SERVER_OWN = {
  routes: [
    ['repositories', 'db'],
    "A route speaks HTTP and calls services; it never reads the database. Put the query in a repository (src/repositories) behind a service (src/services), and import the service's own types.",
  ],
  plugins: [
    ['routes'],
    'Plugins are the request hooks every route runs behind: they sit below the routes and never import one. What describes the routes (the API document) belongs with them in routes/.',
  ],
  services: [
    ['routes'],
    'Services sit below the routes: a service never imports a route. Move what both need into the service, and let the route call it.',
  ],
  repositories: [
    ['routes', 'services'],
    'Repositories sit below services and routes: they read and write rows and never import either. Move the rule that needs them into a service.',
  ],
};

/**
 * A ranked workspace's folder rules. A folder's code imports only its own files, the root modules
 * (less `roots`, which sit above the folders) and the folders of a lower rank: the rule allows those
 * rather than refusing the rest, so a folder missing from the table is refused like one above.
 * `own` gives a folder its own message for some folders it never imports. One rule per depth,
 * since the depth decides how many `../` reach the workspace's src, down to the workspace's
 * `depth` (its deepest folders today, as each rule costs lint time): files deeper still get the
 * deepest rule, so raise `depth` when a folder nests further.
 */
function rankRules(workspace, { label, roots, own = {} }) {
  const { root, ranks, depth: deepest } = RANKED[workspace];
  const order = rankOrder(ranks);
  return ranks.flatMap((folders, rank) =>
    folders.flatMap((folder) =>
      Array.from({ length: deepest }, (_, i) => i + 1).map((depth) => {
        const up = '../'.repeat(depth);
        const [refused, ownMessage] = own[folder] ?? [[], ''];
        const allowed = [folder, ...ranks.slice(0, rank).flat(), ...refused];
        const ranked = {
          group: [`${up}*/**`, ...allowed.map((f) => `!${up}${f}/**`), ...roots.map((r) => `${up}${r}`)],
          message: `${label} folders import only folders below them (${order}); ${folder}/ may not import this. Move what both need down, or the caller up.`,
        };
        const specific = refused.length > 0 ? [{ group: refused.map((f) => `${up}${f}/**`), message: ownMessage }] : [];
        const files = `${root}/${folder}/${'*/'.repeat(depth - 1)}${depth < deepest ? '*.ts' : '**'}`;
        return [workspace, [files, '!**/*.test.ts'], [...specific, ranked]];
      }),
    ),
  );
}

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
  const server = rankRules('server', {
    label: 'Server',
    // The modules that put the server together import the folders, so no folder imports them.
    roots: ['app.js', 'main.js', 'platform.js', 'worker.js', 'admin.js', 'billing-setup.js'],
    own: SERVER_OWN,
  });
  const engine = rankRules('engine', { label: 'Engine', roots: ['index.js'] });
  const engineRoot = [
    'engine',
    ['packages/engine/src/*.ts', '!packages/engine/src/index.ts', '!**/*.test.ts'],
    [
      {
        group: ['./**'],
        message: `The engine's root modules sit below every folder (${rankOrder(ENGINE_RANKS)}); they import none.`,
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
