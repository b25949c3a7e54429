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
    const unit = read(process.argv[1]);
    if (unit) {
      passed += unit.numPassedTests;
      failed += unit.numFailedTests;
      skipped += unit.numPendingTests + (unit.numTodoTests ?? 0);
    }
    const e2e = read(process.argv[2]);
    if (e2e) {
      passed += e2e.stats.expected;
      failed += e2e.stats.unexpected + e2e.stats.flaky;
      skipped += e2e.stats.skipped;
    }
    // A step that failed before its runner wrote results (install, typecheck, build) counts as one failure.
    failed += Number(process.argv[3]);
    console.log(`${passed} passed, ${failed} failed` + (skipped ? `, ${skipped} skipped` : ""));
  ' "$OUT/unit.json" "$OUT/e2e.json" "$1"
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

# Steps without their own test count (typecheck, build, compose) add one failure each.
extra=0
for s in "${failed_steps[@]}"; do case "$s" in unit|e2e) ;; *) extra=$((extra + 1)) ;; esac; done
[ -f "$OUT/unit.json" ] || { [[ " ${failed_steps[*]} " == *" unit "* ]] && extra=$((extra + 1)); }
[ -f "$OUT/e2e.json" ] || { [[ " ${failed_steps[*]} " == *" e2e "* ]] && extra=$((extra + 1)); }
summary "$extra"
[ ${#failed_steps[@]} -eq 0 ]
