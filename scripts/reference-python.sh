#!/usr/bin/env bash
# Makes the Python that the two reference tests compare OwnVoice against, and prints its path:
# packages/engine/src/adapters/peft-transformers.test.ts (a Voice package's PEFT export loaded with
# transformers and peft on the real base model read from its GGUF file, against llama.cpp) and
# packages/engine/src/eval/authorship-reference.test.ts (the authorship classifier against
# scikit-learn). The API journey (scripts/api-journey) runs its Python on it too: the openai SDK
# and peft, as a developer's own Python would. OwnVoice itself never needs these packages: the trainer uses torch and numpy only,
# and nothing here is installed for the app or its .deb.
#
# transformers, peft, accelerate, gguf, scikit-learn, openai and what they need come from PyPI, pinned, into
# a virtual environment kept per machine in ~/.cache/ownvoice (installed once per pinned set), made
# with --system-site-packages from the Python that has torch (OWNVOICE_PYTHON, else Debian's
# /usr/bin/python3), so torch and numpy are that Python's (Debian's python3-torch 1.13 in CI) and
# never PyPI's: every package is installed with --no-deps from the list below, which names neither.
# (pip would refuse Debian's torch 1.13.0a0 for peft's `torch>=1.13.0`, a pre-release being older
# than the release, and fetch gigabytes of CUDA wheels.)
#
# The pins run on torch 1.13 with numpy 1.24 (Debian 12's); where a newer version would not, why:
#   transformers 4.47.1: 4.48 builds the GGUF model under `with torch.device("meta")` (torch 2.0),
#     4.50 imports torch.distributed.tensor, 4.52 disables itself below torch 2.1; 4.47 reads a
#     llama GGUF of any type gguf dequantizes (Q4_1 included) and ties the embeddings when the file
#     has no output.weight, as SmolLM2's has not. It takes the float32 wish as `torch_dtype`
#     (`dtype` came in 4.56, and later versions still take `torch_dtype`).
#   accelerate 1.2.1 (peft needs it): 1.3 requires torch 2.0.
#   scipy 1.15.3 (scikit-learn needs it): 1.16 requires numpy 1.25.
# openai 3.63.0 and what it needs are the newest (2026-12-06); they need typing-extensions 4.16 and
# idna 3.18 or later, which the rest take as well.
# peft 0.21.2 and gguf 0.19.0 are the newest (2026-12-06) and pass the PEFT test on these;
# scikit-learn 1.8.0 is the newest without narwhals. The rest are what these need, at releases of
# their time.
# Messages go to stderr; stdout is only the interpreter's path.
set -euo pipefail
cd "$(dirname "$0")/.."

PINS=(
  transformers==4.47.1 peft==0.21.2 accelerate==1.2.1 gguf==0.19.0 scikit-learn==1.8.0
  huggingface-hub==0.30.2 tokenizers==0.21.1 safetensors==0.5.3 scipy==1.15.3 joblib==1.5.1
  threadpoolctl==3.6.0 filelock==3.18.0 fsspec==2025.3.2 packaging==25.0 psutil==7.0.0
  pyyaml==6.0.2 regex==2024.11.6 requests==2.32.3 urllib3==2.4.0 idna==3.21 certifi==2025.4.26
  charset-normalizer==3.4.2 tqdm==4.67.1 typing-extensions==4.16.0
  openai==3.63.0 anyio==4.16.0 httpx2==2.17.0 httpcore2==2.17.0 h11==0.16.0 truststore==0.10.5
  jiter==0.19.0 pydantic==2.14.4 pydantic-core==2.50.5 annotated-types==0.8.0
  typing-inspection==0.4.5 sniffio==1.3.1
)
# Imports torch, numpy and the reference libraries, and fails when torch or numpy came from the
# virtual environment rather than the Python it was made from.
CHECK='
import sys, numpy, torch, transformers, peft, gguf, sklearn, openai
for module in (torch, numpy):
    assert not module.__file__.startswith(sys.prefix + "/"), f"{module.__name__} from {module.__file__}"
'

base=${OWNVOICE_PYTHON:-/usr/bin/python3}
if ! "$base" -c 'import torch, numpy' >/dev/null 2>&1; then
  echo "$base cannot import torch and numpy: run scripts/ensure-pytorch.sh, or name a Python that can in OWNVOICE_PYTHON." >&2
  exit 1
fi
tag=$( ("$base" -c 'import sys; print(sys.prefix, sys.version)' && printf '%s\n' "${PINS[@]}") | sha256sum | cut -c1-12)
cache="${XDG_CACHE_HOME:-$HOME/.cache}/ownvoice"
venv="$cache/reference-venv-$tag"

if [ ! -f "$venv/.installed" ] || ! "$venv/bin/python" -c "$CHECK" >/dev/null 2>&1; then
  echo "Installing transformers, peft, gguf, scikit-learn and openai beside $base's torch into $venv" >&2
  rm -rf "$venv"
  mkdir -p "$cache"
  "$base" -m venv --system-site-packages "$venv" >&2
  # A base Python that is itself a virtual environment lends its packages through a .pth file
  # (--system-site-packages reaches only the installation's own).
  "$base" -c 'import sys; sys.exit(sys.prefix == sys.base_prefix)' &&
    "$base" -c 'import site; print("\n".join(site.getsitepackages()))' \
      >"$("$venv/bin/python" -c 'import sysconfig; print(sysconfig.get_path("purelib"))')/ownvoice-base.pth"
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-input --no-deps \
    --only-binary=:all: "${PINS[@]}" >&2
  if ! "$venv/bin/python" -c "$CHECK" >&2; then
    echo "The reference libraries were installed into $venv but do not import (see above)." >&2
    exit 1
  fi
  printf '%s\n' "${PINS[@]}" >"$venv/.installed"
fi
echo "$venv/bin/python"
