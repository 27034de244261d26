// Bundles the server into dist/main.js (the standalone training worker into dist/worker.js, the
// operator commands into dist/admin.js), or into the folder after --out-dir,
// and copies the SQL migrations beside it, where migrate.ts looks for them (see
// scripts/node-bundle.mjs for what is bundled).
import { cpSync, rmSync } from 'node:fs';
import { build } from 'esbuild';
import { nodeBundleOptions, outDirOf } from '../../../scripts/node-bundle.mjs';

const outDir = outDirOf(process.argv);

rmSync(outDir, { recursive: true, force: true });
await build(nodeBundleOptions(['src/main.ts', 'src/worker.ts', 'src/admin.ts'], outDir));
cpSync('src/db/migrations', `${outDir}/migrations`, { recursive: true });
console.log(`server built: main.js, worker.js and admin.js in ${outDir}`);
