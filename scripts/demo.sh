#!/usr/bin/env bash
# Set up everything and run the demo against a local Neo4j that is started for you.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh
# shellcheck disable=SC1091
. .venv/bin/activate
exec belief-graph demo "$@"
