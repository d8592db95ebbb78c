import { defineConfig, mergeConfig } from 'vitest/config';
import viteConfig from './vite.config';

// The test runner's settings on top of the build's (vite.config.ts stays free of dev-only imports).
export default defineConfig((env) =>
  mergeConfig(viteConfig(env), {
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
  }),
);
