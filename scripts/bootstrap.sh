#!/usr/bin/env bash
# Install everything belief_graph needs on a fresh machine: Python deps in .venv, Java 17, Maven and
# Chromium when missing (Debian/Ubuntu, as root), and the local Neo4j built from Maven Central
# (with Neo4j Browser and cypher-shell). Chromium runs the tests of Neo4j Browser and of the HTML
# views (driven by Playwright, which downloads no browser of its own).
# Idempotent: re-running is cheap. Used by scripts/demo.sh, scripts/test.sh and .ci/run.
set -euo pipefail
cd "$(dirname "$0")/.."

log() { printf '\033[1m[bootstrap]\033[0m %s\n' "$*"; }

need_apt=()
command -v java >/dev/null 2>&1 || need_apt+=(openjdk-17-jre-headless)
command -v mvn  >/dev/null 2>&1 || need_apt+=(maven)
command -v chromium >/dev/null 2>&1 || need_apt+=(chromium)
if ((${#need_apt[@]})); then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    log "installing ${need_apt[*]} with apt-get"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need_apt[@]}" >/dev/null
  else
    echo "error: missing ${need_apt[*]}: install Java 17+, Maven and Chromium (e.g. 'sudo apt-get install ${need_apt[*]}')" >&2
    exit 1
  fi
fi

PY=${PYTHON:-python3}
if ! "$PY" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
  echo "error: Python 3.11+ is required (found: $("$PY" --version 2>&1)); set PYTHON=/path/to/python3.11" >&2
  exit 1
fi
if [ ! -x .venv/bin/python ]; then
  log "creating .venv"
  "$PY" -m venv .venv
fi
# shellcheck disable=SC1091
. .venv/bin/activate
stamp=.venv/.belief-graph-installed
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ] || [ lab/pyproject.toml -nt "$stamp" ]; then
  log "installing Python packages (editable, with dev + local-embedding extras, and the lab)"
  python -m pip install -q --upgrade pip
  python -m pip install -q -e '.[dev,local]'
  # The benchmarks, demos and scenarios (`belief-graph bench`, `belief-graph demo`): a package of
  # their own beside the runtime, so the runtime wheel does not carry them (docs/architecture.md).
  python -m pip install -q -e ./lab
  touch "$stamp"
fi
log "fetching Neo4j Community, Neo4j Browser and cypher-shell from Maven Central (cached after the first run)"
belief-graph server install
