// Bundles the inference server into dist/main.js, or the folder after --out-dir (see scripts/node-bundle.mjs for what is bundled).
import { rmSync } from 'node:fs';
import { build } from 'esbuild';
import { nodeBundleOptions, outDirOf } from '../../../scripts/node-bundle.mjs';

const outDir = outDirOf(process.argv);

rmSync(outDir, { recursive: true, force: true });
await build(nodeBundleOptions(['src/main.ts'], outDir));
console.log(`inference built: main.js in ${outDir}`);
