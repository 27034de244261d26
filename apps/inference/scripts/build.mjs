// Bundles the inference server into dist/main.js (see scripts/node-bundle.mjs for what is bundled).
import { rmSync } from 'node:fs';
import { build } from 'esbuild';
import { nodeBundleOptions } from '../../../scripts/node-bundle.mjs';

rmSync('dist', { recursive: true, force: true });
await build(nodeBundleOptions(['src/main.ts']));
console.log('inference built: apps/inference/dist/main.js');
