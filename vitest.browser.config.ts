import { defineConfig } from 'vitest/config';

/** `npm run test:browser`: the operators' console in headless Chromium against a service process. */
export default defineConfig({
  test: {
    include: ['test/browser/**/*.browser.ts'],
    pool: 'forks',
    testTimeout: 60_000,
    hookTimeout: 180_000,
    maxWorkers: 1,
    reporters: ['default'],
  },
});
