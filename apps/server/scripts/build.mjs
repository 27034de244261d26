// Bundles the server into dist/main.js (the standalone training worker into dist/worker.js, the
// operator commands into dist/admin.js)
// and copies the SQL migrations beside it, where migrate.ts looks for them (see
// scripts/node-bundle.mjs for what is bundled).
import { cpSync, rmSync } from 'node:fs';
import { build } from 'esbuild';
import { nodeBundleOptions } from '../../../scripts/node-bundle.mjs';

rmSync('dist', { recursive: true, force: true });
await build(nodeBundleOptions(['src/main.ts', 'src/worker.ts', 'src/admin.ts']));
cpSync('src/db/migrations', 'dist/migrations', { recursive: true });
console.log('server built: apps/server/dist/main.js, apps/server/dist/worker.js, apps/server/dist/admin.js');
