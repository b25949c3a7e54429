#!/usr/bin/env bash
# The one command that runs every test: lint (formatter, standalone check), typecheck, the web
# build, unit + integration (vitest; the integration tests start the simulated lab), the e2e suite
# (Playwright + Debian Chromium against the real collector on the lab) and the docker-compose
# check. Ends with one line "N passed, N failed" summed over all runners.
set -uo pipefail
cd "$(dirname "$0")/.."
export npm_config_nodedir=${npm_config_nodedir:-/usr}
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
OUT=.ci/out
rm -rf "$OUT"; mkdir -p "$OUT"
failed_steps=()

step() {
  local name=$1; shift
  local t0=$SECONDS
  echo "::: $name"
  if "$@"; then echo "::: $name ok ($((SECONDS - t0))s)"; else
    local rc=$?; echo "::: $name FAILED rc=$rc ($((SECONDS - t0))s)"; failed_steps+=("$name"); return $rc
  fi
}

summary() {
  node -e '
    const fs = require("fs");
    const read = (f) => { try { return JSON.parse(fs.readFileSync(f, "utf8")); } catch { return null; } };
    let passed = 0, failed = 0, skipped = 0;
    const failedRunners = (process.argv[4] ?? "").split(" ").filter(Boolean);
    // A runner that failed without a failing test (no results written, a global timeout, an error
    // outside any test: Playwright then reports the tests it never ran as skipped) is one failure.
    const runner = (name, counts) => {
      const [p, f, s] = counts ?? [0, 0, 0];
      passed += p; failed += f; skipped += s;
      if (failedRunners.includes(name) && f === 0) {
        failed += 1;
        const why = counts ? "with no failing test (see its log)" : "before writing results";
        console.log(`${name}: the runner failed ${why}`);
      }
    };
    const unit = read(process.argv[1]);
    const unitSkipped = unit && unit.numPendingTests + (unit.numTodoTests ?? 0);
    runner("unit", unit && [unit.numPassedTests, unit.numFailedTests, unitSkipped]);
    const e2e = read(process.argv[2]);
    runner("e2e", e2e && [e2e.stats.expected, e2e.stats.unexpected + e2e.stats.flaky, e2e.stats.skipped]);
    // A step without its own test count (setup, lint, typecheck, build, compose) counts as one failure.
    failed += Number(process.argv[3]);
    console.log(`${passed} passed, ${failed} failed` + (skipped ? `, ${skipped} skipped` : ""));
  ' "$OUT/unit.json" "$OUT/e2e.json" "$1" "${2:-}"
}

step setup bash scripts/setup.sh || { summary 1; exit 1; }
step lint pnpm lint
step typecheck pnpm typecheck
# The dashboard first: the demo's integration test serves it.
step build pnpm build
step unit pnpm exec vitest run --reporter=default --reporter=json \
  --outputFile.json="$OUT/unit.json"
step e2e env PLAYWRIGHT_JSON_OUTPUT_NAME="$PWD/$OUT/e2e.json" \
  pnpm --filter @ibwatch/e2e exec playwright test --reporter=list,json
step compose docker-compose -f docker-compose.yml config -q

# Steps without their own test count (lint, typecheck, build, compose) add one failure each;
# the runners' own failures are counted by summary.
extra=0; runners=""
for s in "${failed_steps[@]}"; do case "$s" in unit|e2e) runners+="$s " ;; *) extra=$((extra + 1)) ;; esac; done
summary "$extra" "$runners"
[ ${#failed_steps[@]} -eq 0 ]
