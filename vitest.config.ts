import { defineConfig } from 'vitest/config';

// One `vitest run` over every package; each package keeps its own vitest/vite config.
export default defineConfig({
  test: { projects: ['packages/*', 'apps/*'] },
});
