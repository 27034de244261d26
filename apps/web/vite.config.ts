// The web app builds to apps/web/dist, which the server serves on its own port. In development
// Vite serves the app and forwards /api to the server, so the browser sees one origin either way.
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const API_TARGET = 'http://127.0.0.1:8080';
/** The admin overview's charts: Mantine's wrapper, recharts and what it builds on. */
const CHARTS_MODULES =
  /node_modules[\\/](@mantine[\\/]charts|recharts|recharts-scale|react-smooth|victory-vendor|d3-[a-z-]+|lodash|decimal\.js-light)[\\/]/;

export default defineConfig({
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    rolldownOptions: {
      output: {
        // Libraries change far less often than the app: separate chunks stay cached across releases.
        codeSplitting: {
          groups: [
            // @mantine/tiptap stays out of every group: it then goes with the lazily loaded Convert editor.
            // @mantine/charts goes with recharts in a chunk of its own, loaded only by the admin console.
            {
              name: 'mantine',
              test: /node_modules[\\/](@mantine[\\/](?!tiptap[\\/]|charts[\\/])|@floating-ui[\\/])/,
            },
            { name: 'icons', test: /node_modules[\\/]@tabler[\\/]/ },
            { name: 'react', test: /node_modules[\\/](react|react-dom|react-router|scheduler)[\\/]/ },
            // The Convert editor (Tiptap, ProseMirror, marked) loads only with the page that uses it.
            {
              name: 'editor',
              test: /node_modules[\\/](@tiptap|prosemirror-[a-z-]+|marked|linkifyjs|orderedmap|rope-sequence|w3c-keyname)[\\/]/,
            },
            // Its few styles load up front with Mantine's (main.tsx), which must not pull the charts in too.
            {
              name: 'charts',
              test: (id) => CHARTS_MODULES.test(id) && !id.endsWith('.css'),
            },
            { name: 'vendor', test: /node_modules[\\/](?!@mantine[\\/]tiptap[\\/])/ },
          ],
        },
      },
    },
  },
  server: {
    host: '127.0.0.1',
    port: 5173,
    proxy: {
      '/api': { target: API_TARGET, changeOrigin: false },
    },
  },
  preview: {
    proxy: {
      '/api': { target: API_TARGET, changeOrigin: false },
    },
  },
});
