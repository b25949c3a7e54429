#!/usr/bin/env bash
# The one demo command: installs what is missing, builds the dashboard, brings up the simulated
# lab fabric (a 3-tier fat-tree with a master and a standby OpenSM) and runs the collector
# scanning it, with the dashboard at http://localhost:8080. Ctrl-C stops the collector and the lab.
set -euo pipefail
cd "$(dirname "$0")/.."
GPUS=${IBWATCH_DEMO_GPUS:-256}

bash scripts/setup.sh
pnpm build >/dev/null
pnpm lab up --gpus "$GPUS" --tiers 3

# A demo token so the "scan now" and acknowledge buttons work; set your own in production.
export IBWATCH_TOKEN=${IBWATCH_TOKEN:-demo-token-change-me-0123456789}
export IBWATCH_SOURCE=lab
export IBWATCH_CRON_PM=${IBWATCH_CRON_PM:-*/15 * * * * *}
export IBWATCH_CRON_SM=${IBWATCH_CRON_SM:-*/10 * * * * *}
export IBWATCH_CRON_TOPOLOGY=${IBWATCH_CRON_TOPOLOGY:-5 * * * * *}
export IBWATCH_NODE_NAME_MAP=${IBWATCH_NODE_NAME_MAP:-$PWD/.lab/node-name-map}
# Every lab link is brand new, and freshly cabled links get a grace period (info-only findings):
# the demo turns it off so an injected fault shows at once.
export IBWATCH_GRACE_PERIOD_MIN=${IBWATCH_GRACE_PERIOD_MIN:-0}

cleanup() { pnpm lab down || true; }
[ -n "${IBWATCH_DEMO_KEEP_LAB:-}" ] || trap cleanup EXIT
echo "ibwatch demo: dashboard at http://localhost:${IBWATCH_PORT:-8080}  (write token: $IBWATCH_TOKEN)"
pnpm ibwatch serve
