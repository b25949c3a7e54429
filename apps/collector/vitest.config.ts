import { configDefaults, defineProject } from 'vitest/config';

// 20 s, not vitest's 5 s: CI is a 2-core machine running ~160 test files at once, and tests that
// build a database or a 10k-GPU fabric took 5-8 s there under load. Speed lives in `pnpm bench`.
// The integration tests on the lab run one file at a time in a project of the root config.
export default defineProject({
  test: {
    environment: 'node',
    testTimeout: 20_000,
    exclude: [...configDefaults.exclude, '**/*.integration.test.ts'],
  },
});
