import { configDefaults, defineProject } from 'vitest/config';

// The lab's integration tests run one file at a time in a project of the root config.
export default defineProject({
  test: { environment: 'node', exclude: [...configDefaults.exclude, '**/*.integration.test.ts'] },
});
