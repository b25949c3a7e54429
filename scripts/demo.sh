#!/usr/bin/env bash
# The one demo command: installs what is missing, builds the dashboard if it is stale, starts a
# fresh simulated lab fabric (a 3-tier fat-tree with a master and a standby OpenSM) and the
# collector scanning it, then tells a story: faults injected into the lab on a timeline
# (IBWATCH_DEMO_SCENARIO=story, the default; `quiet` leaves the fabric healthy), each printed as
# it happens together with the findings ibwatch opens about it. Ctrl-C stops everything.
# What to look at and when: docs/demo.md.
set -euo pipefail
cd "$(dirname "$0")/.."
GPUS=${IBWATCH_DEMO_GPUS:-256}
SCENARIO=${IBWATCH_DEMO_SCENARIO:-story}
PORT=${IBWATCH_PORT:-8080}
say() { printf 'demo: %s\n' "$*"; }

case "$SCENARIO" in story | quiet) ;; *)
  say "IBWATCH_DEMO_SCENARIO must be story or quiet, not \"$SCENARIO\""
  exit 2
  ;;
esac
if (exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null; then
  say "port $PORT is in use on 127.0.0.1 (another demo?); stop it or set IBWATCH_PORT"
  exit 1
fi

bash scripts/setup.sh
node scripts/ensure-web-build.mjs

# A fresh lab and a fresh database every time, so the story starts from a healthy fabric.
pnpm --silent lab down >/dev/null 2>&1 || true
say "starting the lab: $GPUS GPUs, 3 tiers, master and standby OpenSM"
pnpm --silent lab up --gpus "$GPUS" --tiers 3
if [ -z "${IBWATCH_DB:-}" ]; then
  export IBWATCH_DB=.ibwatch/demo.db
  rm -f .ibwatch/demo.db .ibwatch/demo.db-wal .ibwatch/demo.db-shm
fi
mkdir -p "$(dirname "$IBWATCH_DB")"

# A demo token so the "scan now" and acknowledge buttons work; set your own in production.
export IBWATCH_TOKEN=${IBWATCH_TOKEN:-demo-token-change-me-0123456789}
export IBWATCH_SOURCE=lab
export IBWATCH_HOST=127.0.0.1 IBWATCH_PORT="$PORT"
# The lab's node-name map (racks) is found by the collector itself (IBWATCH_SOURCE=lab).
export IBWATCH_CRON_PM=${IBWATCH_CRON_PM:-*/15 * * * * *}
export IBWATCH_CRON_SM=${IBWATCH_CRON_SM:-*/10 * * * * *}
export IBWATCH_CRON_TOPOLOGY=${IBWATCH_CRON_TOPOLOGY:-*/20 * * * * *}
# Every lab link is brand new, and freshly cabled links get a grace period (info-only findings):
# the demo turns it off so an injected fault shows at once.
export IBWATCH_GRACE_PERIOD_MIN=${IBWATCH_GRACE_PERIOD_MIN:-0}

LOG="$(dirname "$IBWATCH_DB")/demo-collector.log"
COLLECTOR=
cleanup() {
  trap - EXIT INT TERM
  if [ -n "$COLLECTOR" ] && kill -0 "$COLLECTOR" 2>/dev/null; then
    kill -TERM "$COLLECTOR" 2>/dev/null || true
    wait "$COLLECTOR" 2>/dev/null || true
  fi
  if [ -z "${IBWATCH_DEMO_KEEP_LAB:-}" ]; then pnpm --silent lab down >/dev/null 2>&1 || true; fi
  say "stopped (collector log: $LOG)"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

node --import tsx apps/collector/src/server.ts >"$LOG" 2>&1 &
COLLECTOR=$!
say "collector started (pid $COLLECTOR, log $LOG); scenario: $SCENARIO"
if ! node --import tsx packages/lab/src/cli.ts demo --url "http://127.0.0.1:$PORT" \
  --dashboard "http://localhost:$PORT" --scenario "$SCENARIO" --collector-pid "$COLLECTOR"; then
  say "the demo stopped; the collector log ends with:"
  tail -n 20 "$LOG" >&2
  exit 1
fi
