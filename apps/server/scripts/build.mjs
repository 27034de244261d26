// Bundles the server into dist/main.js (workspace packages inlined, npm dependencies left
// external) and copies the SQL migrations beside it, where migrate.ts looks for them.
import { cpSync, readFileSync, rmSync } from 'node:fs';
import { build } from 'esbuild';

// Workspace packages are TypeScript source, so they are bundled; npm packages stay external.
const { dependencies = {}, devDependencies = {} } = JSON.parse(readFileSync('package.json', 'utf8'));
const external = Object.keys({ ...dependencies, ...devDependencies })
  .filter((name) => !name.startsWith('@ownvoice/'))
  .flatMap((name) => [name, `${name}/*`]);

rmSync('dist', { recursive: true, force: true });
await build({
  entryPoints: ['src/main.ts'],
  outfile: 'dist/main.js',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  external,
  logLevel: 'warning',
});
cpSync('src/db/migrations', 'dist/migrations', { recursive: true });
console.log('server built: apps/server/dist/main.js');
