// Bundles the server into dist/main.js (the standalone training worker into dist/worker.js, the
// operator commands into dist/admin.js)
// and copies the SQL migrations beside it, where
// migrate.ts looks for them. Workspace packages (@ownvoice/*) are TypeScript source and are
// bundled; every npm package stays external and loads from node_modules at run time (some,
// like node-llama-cpp, carry native binaries that cannot be bundled).
import { cpSync, rmSync } from 'node:fs';
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
  entryPoints: ['src/main.ts', 'src/worker.ts', 'src/admin.ts'],
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  plugins: [externalNpmPackages],
  logLevel: 'warning',
});
cpSync('src/db/migrations', 'dist/migrations', { recursive: true });
console.log('server built: apps/server/dist/main.js, apps/server/dist/worker.js, apps/server/dist/admin.js');
