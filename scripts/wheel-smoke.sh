#!/usr/bin/env bash
# Build the runtime wheel, install it with the `local` and `langgraph` extras into a fresh virtual environment
# outside the checkout, and use it there as a user would:
#
#   1. the wheel's file list: the runtime package, its Cypher/schema/prompt resources, and none of
#      the lab (benchmarks, demos, scenarios: lab/belief_graph_lab);
#   2. `pip install '<wheel>[local,langgraph]'` into a new venv (the wheel's own dependencies from the index);
#   3. `belief-graph --help` from the installed entry point (no `bench`/`demo`), and `belief-graph
#      demo` saying how to get the lab (exit 2);
#   4. scripts/wheel_smoke.py, copied to and run from a temporary folder with the venv's Python:
#      connect, assert, update, belief, recall with the local embedder, whose files it fetches on
#      first use into an empty folder (no extra install step), an update through the async client,
#      and a LangGraph graph whose memory is the LangGraph store over that space;
#   5. the space it wrote is dropped with the installed CLI.
#
# Neo4j: the one the BELIEF_GRAPH_NEO4J__* / BELIEF_GRAPH_SERVER__* settings name; when none answers
# and no URI was given, the installed CLI starts the local server and stops it at the end.
# Used by .ci/run after the fast suite. Needs the checkout's .venv (scripts/bootstrap.sh) to build.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
PY=${PYTHON:-python3}
say() { printf '\033[1m[wheel-smoke]\033[0m %s\n' "$*"; }

work=$(mktemp -d "${TMPDIR:-/tmp}/belief-graph-wheel-smoke.XXXXXX")
venv="$work/venv"
started=0
cleanup() {
  if [ "$started" = 1 ]; then "$venv/bin/belief-graph" server stop >/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

say "building the wheel (hatchling, no build isolation: nothing fetched)"
.venv/bin/python -m build --wheel --no-isolation --outdir "$work/dist" . >"$work/build.log" 2>&1 \
  || { cat "$work/build.log" >&2; exit 1; }
whl=$(ls "$work"/dist/belief_graph-*.whl)

say "checking the file list of $(basename "$whl")"
"$PY" - "$whl" <<'PYEOF'
import sys, zipfile
names = zipfile.ZipFile(sys.argv[1]).namelist()
lab = ("belief_graph_lab/", "belief_graph/benchmarks/", "belief_graph/scenarios/", "belief_graph/cli/bench/",
       "belief_graph/cli/demo", "belief_graph/llm/demo.py", "belief_graph/data/memory/",
       "belief_graph/data/llm_quality.yaml", "belief_graph/data/rashomon.yaml", "lab/", "tests/")
bad = sorted(n for n in names if n.startswith(lab))
assert not bad, f"lab files in the runtime wheel: {bad}"
tops = sorted({n.split("/")[0] for n in names})
assert tops == ["belief_graph", "belief_graph-0.1.0.dist-info"], tops
for need in ("belief_graph/cli/plugins.py", "belief_graph/embeddings/minilm_files.py",
             "belief_graph/llm/demo_replay.json", "belief_graph/data/perspectives.yaml",
             "belief_graph/_resources/cypher/claim/get_belief.cypher",
             "belief_graph/integrations/langgraph.py", "belief_graph/_resources/cypher/store/get_items.cypher"):
    assert need in names, f"missing from the wheel: {need}"
print(f"{len(names)} files, none of the lab")
PYEOF

say "installing it with the local and langgraph extras into a fresh venv ($venv)"
"$PY" -m venv "$venv"
"$venv/bin/python" -m pip install -q "${whl}[local,langgraph]"

cd "$work"   # from here on nothing of the checkout is on the path
say "the installed entry point"
"$venv/bin/belief-graph" --help >help.txt
grep -q "memory" help.txt || { cat help.txt >&2; echo "error: --help lists no memory group" >&2; exit 1; }
if grep -Eq "^[│| ]+(bench|demo) " help.txt; then
  cat help.txt >&2; echo "error: the runtime wheel offers bench/demo without the lab" >&2; exit 1
fi
set +e
"$venv/bin/belief-graph" demo >demo.out 2>&1
demo_rc=$?
set -e
if [ "$demo_rc" != 2 ] || ! grep -q "pip install -e ./lab" demo.out; then
  cat demo.out >&2; echo "error: 'belief-graph demo' without the lab: exit $demo_rc, no hint" >&2; exit 1
fi

if ! "$venv/bin/belief-graph" server status --quiet >/dev/null 2>&1; then
  if [ -n "${BELIEF_GRAPH_NEO4J__URI:-}" ] && [ -z "${BELIEF_GRAPH_SERVER__BOLT_PORT:-}" ]; then
    echo "error: no Neo4j answers at $BELIEF_GRAPH_NEO4J__URI" >&2; exit 1
  fi
  say "starting the local Neo4j with the installed CLI"
  "$venv/bin/belief-graph" server start
  started=1
fi

space="wheel-smoke-$$-$(date +%s)"
cp "$repo/scripts/wheel_smoke.py" "$work/wheel_smoke.py"
say "using the installed package (space $space)"
BELIEF_GRAPH_EMBEDDING__PROVIDER=local \
BELIEF_GRAPH_EMBEDDING__LOCAL_MODEL_DIR="$work/minilm" \
  "$venv/bin/python" "$work/wheel_smoke.py" "$repo" "$space"
"$venv/bin/belief-graph" db drop-space "$space" --yes >/dev/null
say "ok"
