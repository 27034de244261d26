// esbuild options shared by the Node services' builds (apps/server, apps/inference): workspace
// packages (@ownvoice/*) are TypeScript source and are bundled; every npm package stays external
// and loads from node_modules at run time (some, like node-llama-cpp, carry native binaries that
// cannot be bundled).
const externalNpmPackages = {
  name: 'external-npm-packages',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith('@ownvoice/') ? undefined : { path: args.path, external: true },
    );
  },
};

/**
 * Options for esbuild's build(): the entry points bundled into `outdir` as ES modules for Node 20.
 * @param {string[]} entryPoints
 * @param {string} [outdir]
 */
export const nodeBundleOptions = (entryPoints, outdir = 'dist') => ({
  entryPoints,
  outdir,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  plugins: [externalNpmPackages],
  logLevel: 'warning',
});

/**
 * Where a build writes: `--out-dir DIR` (the .deb's staging folder, so that packaging never
 * replaces the bundle a running service or test loads), else dist/.
 * @param {string[]} argv
 */
export const outDirOf = (argv) => {
  const at = argv.indexOf('--out-dir');
  return at >= 0 && argv[at + 1] ? argv[at + 1] : 'dist';
};
