import { defineConfig } from 'vitest/config';
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
  test: {
    root: '.',
    include: ['{common,server,client,scripts}/**/*.test.ts'],
    globalSetup: ['tests/support/global-setup.ts'],
    pool: 'forks',
    // Each worker loads the server's modules once for all its files instead of once per file (about half
    // of the suite's CPU time went to importing them again). Every suite builds its own app on its own
    // database, so no state is shared through them (scripts/test.mjs times the phases).
    isolate: false,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    fileParallelism: true,
    maxWorkers: 2,
  },
}));
