// The layers of ibwatch as rules (docs/architecture.md draws them). Run by `pnpm lint`:
//   depcruise --config .dependency-cruiser.cjs apps packages
// There is no baseline of known violations: every rule holds for the whole tree.
// Tests (*.test.ts, test/, e2e/) may import across layers to set up and inspect, but no cycles.
const TEST = '(^|/)(test|tests|e2e)/|\\.test(-helper)?\\.tsx?$|/test-support\\.ts$';
const C = '^apps/collector/src/';

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'No import cycles anywhere: every layer can be read, built and tested from the bottom up.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'fabric-imports-nothing-of-ours',
      severity: 'error',
      comment: 'packages/fabric is the bottom: API types and pure domain rules, shared by everything.',
      from: { path: '^packages/fabric/', pathNot: TEST },
      to: { path: '^(apps|packages)/', pathNot: '^packages/fabric/' },
    },
    {
      name: 'parsers-import-only-fabric',
      severity: 'error',
      comment: 'Parsers are pure functions over text: fabric only, no node: builtins (no I/O, no threads).',
      from: { path: '^packages/parsers/src/', pathNot: TEST },
      to: { pathNot: '^packages/(parsers|fabric)/' },
    },
    {
      name: 'web-imports-only-fabric',
      severity: 'error',
      comment: 'The SPA knows the collector only through the API types (and pure helpers) of packages/fabric.',
      from: { path: '^apps/web/' },
      to: { path: '^(apps|packages)/', pathNot: '^(apps/web|packages/fabric)/' },
    },
    {
      name: 'no-import-from-another-app',
      severity: 'error',
      comment: 'Nothing imports from apps/ outside its own app: packages never, one app never from another.',
      from: { path: '^(packages/[^/]+|apps/[^/]+)/' },
      to: { path: '^apps/', pathNot: '^$1/' },
    },
    {
      name: 'collector-db-imports-only-fabric',
      severity: 'error',
      comment: 'db/ holds all SQL: repositories over better-sqlite3 and fabric types, nothing above them.',
      from: { path: `${C}db/`, pathNot: TEST },
      to: {
        pathNot: `^(${C.slice(1)}db/|packages/fabric/)|node_modules/(better-sqlite3|@types/better-sqlite3)/`,
        dependencyTypesNot: ['core'],
      },
    },
    {
      name: 'collector-sources-below-scans',
      severity: 'error',
      comment: 'sources/ run tools and return typed results (sources/types.ts); they know no scan, route or CLI.',
      from: { path: `${C}sources/`, pathNot: TEST },
      to: { path: `${C}(scans|routes|queries|analysis|fleet)/|${C}(app|cli[^/]*|context|server)\\.ts$` },
    },
    {
      name: 'collector-queries-below-scans',
      severity: 'error',
      comment: 'queries/ and analysis/ read stored data for routes, the CLI and the stores: no sources, scans, routes.',
      from: { path: `${C}(queries|analysis)/`, pathNot: TEST },
      to: { path: `${C}(sources|scans|routes|fleet)/|${C}(app|cli[^/]*|context|server)\\.ts$` },
    },
    {
      name: 'collector-scans-below-routes',
      severity: 'error',
      comment: 'scans/ (pipeline, stores, service) is driven by routes, the CLI and the server, never the reverse.',
      from: { path: `${C}scans/`, pathNot: TEST },
      to: { path: `${C}(routes|fleet)/|${C}(app|cli[^/]*|context|server)\\.ts$` },
    },
    {
      name: 'collector-routes-and-cli-use-the-scan-service',
      severity: 'error',
      comment:
        'Routes and the CLI start scans through the ScanService (scans/service.ts, scans/types.ts) ' +
        'and never run sources or scan internals themselves.',
      from: { path: `${C}(routes/|cli[^/]*\\.ts$)`, pathNot: TEST },
      to: { path: `${C}(sources/|scans/(?!(service|types)\\.ts$))` },
    },
    {
      name: 'collector-production-without-the-lab',
      severity: 'error',
      comment: 'The simulator is a devDependency: only the lab source adapter may load it, with a dynamic import().',
      from: { path: C, pathNot: `${TEST}|${C}sources/lab-adapter\\.ts$` },
      to: { path: '^packages/lab/' },
    },
    {
      name: 'collector-lab-adapter-loaded-lazily',
      severity: 'error',
      comment: 'sources/lab-adapter.ts is import()ed when IBWATCH_SOURCE=lab, never statically.',
      from: { path: C, pathNot: TEST },
      to: { path: `${C}sources/lab-adapter\\.ts$`, dependencyTypesNot: ['dynamic-import'] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist|fixtures)/' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
