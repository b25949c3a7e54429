import { configDefaults, defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';
import collector from './apps/collector/vitest.config.ts';
import lab from './packages/lab/vitest.config.ts';

/**
 * The tests against the simulated lab (`*.integration.test.ts`) run in projects of their own,
 * one file at a time (vitest runs such files after the others): each file starts its own ibsim
 * and two OpenSMs, and several labs at once on a busy machine made ibqueryerrors crash under
 * umad2sim and an SM takeover miss its minute. The packages' own configs leave these files out;
 * here they get those configs' test options back.
 */
function integration(
  dir: string,
  pkg: { test?: object },
  name: string,
  include: string,
): TestProjectInlineConfiguration {
  return {
    test: {
      ...pkg.test,
      name,
      root: `./${dir}`,
      include: [include],
      exclude: configDefaults.exclude,
      fileParallelism: false,
    },
  };
}

// One `vitest run` over every package; each package keeps its own vitest/vite config.
export default defineConfig({
  test: {
    projects: [
      'packages/*',
      'apps/*',
      integration('packages/lab', lab, '@ibwatch/lab (lab)', 'src/**/*.integration.test.ts'),
      integration('apps/collector', collector, '@ibwatch/collector (lab)', 'test/**/*.integration.test.ts'),
      // The repository's own checks (scripts/check-size.mjs ...), plain Node scripts.
      { test: { name: 'scripts', include: ['scripts/**/*.test.mjs'], environment: 'node' } },
      // The bench's own pieces (target table, command lines); the benches themselves are not tests.
      { test: { name: 'bench', include: ['bench/**/*.test.ts'], environment: 'node' } },
    ],
  },
});
