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

/** Options for esbuild's build(): the entry points bundled into dist/ as ES modules for Node 20. */
export const nodeBundleOptions = (entryPoints) => ({
  entryPoints,
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  plugins: [externalNpmPackages],
  logLevel: 'warning',
});
