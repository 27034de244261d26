#!/usr/bin/env bash
# Installs what the tests need beyond npm, from Debian's packages: chromium (browser tests),
# PostgreSQL (the database tests' second run), oathtool (an independent TOTP generator),
# PyTorch with an optimised BLAS (the LoRA trainer; without libopenblas0-pthread torch falls
# back to a BLAS about 30 times slower) and Python's venv (Schemathesis, from PyPI, for
# fuzz-api.sh).
# Idempotent: does nothing when everything is present.
set -euo pipefail

missing=()
command -v chromium >/dev/null 2>&1 || [ -x /usr/bin/chromium ] || missing+=(chromium)
compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null || missing+=(postgresql)
command -v oathtool >/dev/null 2>&1 || missing+=(oathtool)
/usr/bin/python3 -c 'import torch, numpy' >/dev/null 2>&1 || missing+=(python3-torch python3-numpy)
dpkg -s libopenblas0-pthread >/dev/null 2>&1 || missing+=(libopenblas0-pthread)
python3 -c 'import ensurepip, venv' >/dev/null 2>&1 || missing+=(python3-venv)

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    SUDO=sudo
  else
    echo "Missing system packages: ${missing[*]}" >&2
    echo "Install them with:  sudo apt-get install -y ${missing[*]}" >&2
    exit 1
  fi
else
  SUDO=
fi

echo "Installing system packages: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
