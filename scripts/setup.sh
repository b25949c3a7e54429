#!/usr/bin/env bash
# Installs everything ibwatch needs, idempotently: Debian packages (the simulated-fabric lab,
# infiniband-diags, Chromium for e2e, docker-compose to check the compose file), pnpm 12.4.2 and
# the workspace's dependencies. Fast when everything is already there.
set -euo pipefail
cd "$(dirname "$0")/.."

PNPM_VERSION=12.4.2
# slurm*/munge: the blast-radius integration test runs a real Slurm (docs/impact.md).
APT_PACKAGES=(ibsim-utils libumad2sim0 opensm infiniband-diags chromium docker-compose
  prometheus prometheus-alertmanager slurmctld slurmd munge slurm-client)
export npm_config_nodedir=${npm_config_nodedir:-/usr}   # better-sqlite3 builds against the system node headers
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
export DEBIAN_FRONTEND=noninteractive

say() { printf 'setup: %s\n' "$*" >&2; }

node_major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
if [ "$node_major" -lt 20 ]; then
  say "Node.js 20 or newer is required (found: $(node --version 2>/dev/null || echo none))."
  say "Install it from your distribution or nodejs.org, then run this again."
  exit 1
fi

missing=()
for p in "${APT_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null; then
    say "installing Debian packages: ${missing[*]}"
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  else
    say "missing packages: ${missing[*]}"
    if command -v apt-get >/dev/null; then
      say "run as root:  sudo apt-get install ${missing[*]}"
    else
      say "this is not a Debian/Ubuntu system. ibwatch needs: ibsim + libumad2sim (lab only),"
      say "opensm (lab only), infiniband-diags (ibnetdiscover, iblinkinfo, ibqueryerrors, sminfo, saquery)"
      say "and a Chromium at /usr/bin/chromium (e2e only; or set CHROMIUM_PATH). Install them with your"
      say "package manager, then run this again."
    fi
    exit 1
  fi
fi

if [ "$(pnpm --version 2>/dev/null || true)" != "$PNPM_VERSION" ]; then
  say "installing pnpm $PNPM_VERSION"
  npm install -g --silent "pnpm@$PNPM_VERSION" >/dev/null 2>&1 || npm install -g "pnpm@$PNPM_VERSION"
fi

if [ -n "${CI:-}" ] || [ ! -d node_modules/.pnpm ]; then
  pnpm install --frozen-lockfile
else
  pnpm install --frozen-lockfile --prefer-offline >/dev/null
fi
