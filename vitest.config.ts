import { defineConfig } from 'vitest/config';

// One `vitest run` over every package; each package keeps its own vitest/vite config.
export default defineConfig({
  test: {
    projects: [
      'packages/*',
      'apps/*',
      // The repository's own checks (scripts/check-size.mjs ...), plain Node scripts.
      { test: { name: 'scripts', include: ['scripts/**/*.test.mjs'], environment: 'node' } },
      // The bench's own pieces (target table, command lines); the benches themselves are not tests.
      { test: { name: 'bench', include: ['bench/**/*.test.ts'], environment: 'node' } },
    ],
  },
});
