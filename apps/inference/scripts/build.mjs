// Bundles the inference server into dist/main.js. Workspace packages (@ownvoice/*) are TypeScript
// source and are bundled; every npm package stays external and loads from node_modules at run
// time (node-llama-cpp carries native binaries that cannot be bundled).
import { rmSync } from 'node:fs';
import { build } from 'esbuild';

const externalNpmPackages = {
  name: 'external-npm-packages',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith('@ownvoice/') ? undefined : { path: args.path, external: true },
    );
  },
};

rmSync('dist', { recursive: true, force: true });
await build({
  entryPoints: ['src/main.ts'],
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  plugins: [externalNpmPackages],
  logLevel: 'warning',
});
console.log('inference built: apps/inference/dist/main.js');
