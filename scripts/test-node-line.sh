#!/usr/bin/env bash
# Runs the unit and API tests (every vitest project, or the arguments given to `vitest run`) on
# another Node.js line than the one installed, as the README's "Node.js lines" says we do before
# widening `engines`: bash scripts/test-node-line.sh 24 [vitest arguments].
#
# Node's own binaries come from npm (node-linux-<arch>, a plain package with no install script) into
# a fresh folder every user can read, removed afterwards: one test runs Node as user `nobody`
# (the embedded database's socket refuses other local accounts), and a Node under /root, where
# `npx node@24` puts it, is not one nobody can start. The tests' environment is the caller's: set
# TEST_DATABASE_URL and the OWNVOICE_TEST_* models as `npm test` does for the same coverage.
set -euo pipefail
cd "$(dirname "$0")/.."

line=${1:?usage: scripts/test-node-line.sh <major version, e.g. 24> [vitest arguments]}
shift
case "$(uname -m)" in
  x86_64) arch=x64 ;;
  aarch64) arch=arm64 ;;
  *) echo "No Node.js package for $(uname -m) on npm." >&2; exit 1 ;;
esac

dir=$(mktemp -d /tmp/ownvoice-node.XXXXXX)
trap 'rm -rf "$dir"' EXIT
chmod 755 "$dir"
npm install --prefix "$dir" --no-save --no-package-lock --no-audit --no-fund --ignore-scripts \
  "node-linux-$arch@$line" >&2
bin="$dir/node_modules/node-linux-$arch/bin"
echo "Unit and API tests on Node.js $("$bin/node" --version) (installed: $(node --version))" >&2
PATH="$bin:$PATH" "$bin/node" node_modules/vitest/vitest.mjs run "$@"
