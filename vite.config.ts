// The build's config: `npm start` builds the storefront with it, so it imports only build dependencies
// (vitest.config.ts adds the test runner's settings on top).
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';

export default defineConfig(({ isSsrBuild }) => ({
  root: 'client',
  publicDir: 'public',
  plugins: [react(), tailwindcss()],
  build: {
    outDir: '../dist/client',
    emptyOutDir: true,
    manifest: true,
    sourcemap: false,
    copyPublicDir: !isSsrBuild,
    // The libraries every screen's first load needs, in one file instead of five small ones (each a
    // request, a gzip header and its own import lines).
    rolldownOptions: isSsrBuild
      ? {}
      : {
          output: {
            codeSplitting: {
              groups: [
                {
                  name: 'libs',
                  test: /node_modules[\\/](react|react-dom|scheduler|wouter|regexparam|use-sync-external-store|clsx)[\\/]/,
                },
              ],
            },
          },
        },
  },
  // The server-rendering bundle (scripts/build-client.mjs) carries its dependencies, so it runs from
  // any folder the built shop is copied to.
  ssr: { noExternal: true },
  // …and always React's production build, whatever NODE_ENV the server was started with.
  define: isSsrBuild ? { 'process.env.NODE_ENV': JSON.stringify('production') } : {},
  server: { proxy: { '/api': 'http://localhost:3000', '/uploads': 'http://localhost:3000' } },
}));
