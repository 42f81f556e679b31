#!/usr/bin/env bash
# Set up everything, start the local Neo4j (unless BELIEF_GRAPH_NEO4J__URI points elsewhere),
# run the whole test suite against it, and stop what this script started.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh
# shellcheck disable=SC1091
. .venv/bin/activate
started=0
if [ -z "${BELIEF_GRAPH_NEO4J__URI:-}" ] && ! docker info >/dev/null 2>&1; then
  if ! belief-graph server status --quiet; then
    belief-graph server start
    started=1
  fi
fi
cleanup() { if [ "$started" = 1 ]; then belief-graph server stop || true; fi; }
trap cleanup EXIT
export BELIEF_GRAPH_TEST_KEEP_SERVER=1
python -m pytest "$@"
