#!/usr/bin/env bash
# Makes sure the LoRA trainer can run: a Python that imports torch and numpy. On Debian or
# Ubuntu as root it installs them with apt; otherwise it prints the one command to run. It never
# stops the service from starting: without PyTorch only training is unavailable.
set -uo pipefail

python=${OWNVOICE_PYTHON:-}
for candidate in ${python:-/usr/bin/python3 python3}; do
  if "$candidate" -c 'import torch, numpy' >/dev/null 2>&1; then exit 0; fi
done

packages="python3-torch python3-numpy libopenblas0-pthread"
if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing PyTorch for Voice training (apt-get install $packages)..."
  export DEBIAN_FRONTEND=noninteractive
  if apt-get update -qq && apt-get install -y -qq --no-install-recommends $packages >/dev/null; then
    exit 0
  fi
  echo "Could not install PyTorch with apt; Voice training stays unavailable until it is installed." >&2
  exit 0
fi

echo "Voice training needs PyTorch. Install it with:" >&2
if command -v apt-get >/dev/null 2>&1; then
  echo "  sudo apt-get install -y $packages" >&2
else
  echo "  python3 -m pip install torch numpy    (then set OWNVOICE_PYTHON if that python3 is not first on PATH)" >&2
fi
exit 0
