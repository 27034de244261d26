#!/usr/bin/env bash
# Builds the offline app as a Debian package: dist/packages/ownvoice_<version>_<arch>.deb, with
# the built server and web app, the engine (house model and Python trainer), production node
# modules for this machine only, and the Node.js that runs this script, under /usr/lib/ownvoice;
# the launcher /usr/bin/ownvoice and a desktop menu entry. See "The offline app" in README.md.
# Progress goes to stderr; stdout gets only the package's path.
set -euo pipefail
cd "$(dirname "$0")/.."
exec 3>&1 1>&2
repo=$PWD

for tool in dpkg-deb dpkg node npm; do
  command -v "$tool" >/dev/null 2>&1 || { echo "package-deb: $tool is needed" >&2; exit 1; }
done

version=$(node_modules/.bin/tsx -e \
  "import { OFFLINE_APP } from './packages/shared/src/constants.ts'; console.log(OFFLINE_APP.version)")
arch=$(dpkg --print-architecture)
out_dir=$repo/dist/packages
deb=$out_dir/ownvoice_${version}_${arch}.deb

# The Node.js shipped inside: the one running the build, which must meet the engines range.
node_bin=$(command -v node)
node_bin=$(readlink -f "$node_bin")
# The range is the tried lines, "^20.19.0 || ^22.12.0 || ^24.0.0" (decision 47): one of them, at
# least its version.
node -e '
  const range = require("./package.json").engines.node;
  const parts = (v) => v.split(".").map(Number);
  const have = parts(process.versions.node);
  const fits = range.split("||").some((line) => {
    const need = parts(line.trim().replace(/^\^/, ""));
    return have[0] === need[0] && (have[1] - need[1] || have[2] - (need[2] ?? 0)) >= 0;
  });
  if (!fits) {
    console.error(`package-deb: Node.js ${process.versions.node} is not one of the tested lines (${range})`);
    process.exit(1);
  }
'

stage=$(mktemp -d "${TMPDIR:-/tmp}/ownvoice-deb.XXXXXX")
trap 'rm -rf "$stage"' EXIT
root=$stage/root
app=$root/usr/lib/ownvoice
mkdir -p "$app" "$out_dir"

echo "package-deb: building OwnVoice $version for $arch in $stage"
# Everything built straight into the package, never into the working tree's dist/ folders, which a
# running service, or the tests CI runs beside this, may be loading.
(cd apps/web && ../../node_modules/.bin/vite build --logLevel warn --outDir "$app/apps/web/dist" --emptyOutDir)
(cd apps/server && node scripts/build.mjs --out-dir "$app/apps/server/dist")
(cd apps/inference && node scripts/build.mjs --out-dir "$app/apps/inference/dist")

# Production modules of the four run-time workspaces, laid out as the lockfile places them, from
# this checkout's node_modules as its npm ci installed them (production-modules.mjs), not
# installed a second time; without npm's .bin links and hidden lockfile, which nothing run from
# the package uses. Then only this machine's native builds are kept (prune-native.mjs).
for manifest in package.json packages/shared/package.json packages/engine/package.json \
  apps/server/package.json apps/inference/package.json apps/web/package.json; do
  install -D -m 644 "$manifest" "$app/$manifest"
done
node packaging/deb/production-modules.mjs "$repo" "$app" packages/shared packages/engine apps/server apps/inference
node packaging/deb/prune-native.mjs "$app/node_modules"

# What the server loads at run time: its bundle and migrations, and the engine's and shared
# package's TypeScript sources (the file-extraction child process runs them through tsx), the
# house model, the corpus a Voice's evaluation reads (its neutral paragraphs and other writers'
# passages) and the Python trainer. Tests and benchmarks stay out.
# (The server's bundle and the inference server's, which the API server runs beside itself, were
# built into the package above.)
for dir in packages/engine/bin packages/engine/src packages/engine/python packages/engine/models packages/engine/corpus \
  packages/shared/src; do
  mkdir -p "$app/$dir"
  (cd "$dir" && find . -type f ! -name '*.test.ts' ! -path '*/test/*' ! -path '*/__pycache__/*' \
    -exec install -D -m 644 {} "$app/$dir/{}" \;)
done
chmod 755 "$app"/packages/engine/bin/*.mjs
echo "$version" >"$app/VERSION"

install -D -m 755 "$node_bin" "$app/bin/node"
install -D -m 755 packaging/deb/ownvoice "$root/usr/bin/ownvoice"
install -D -m 644 packaging/deb/ownvoice.desktop "$root/usr/share/applications/ownvoice.desktop"
install -D -m 644 apps/web/public/favicon.svg "$root/usr/share/icons/hicolor/scalable/apps/ownvoice.svg"

# Depends: the system libraries the native binaries link to (found with ldd, owned by which
# package says dpkg), and what the trainer imports.
mapfile -t elf_files < <(find "$app" -type f \( -name '*.node' -o -name '*.so' -o -name '*.so.*' -o -path '*/bin/node' \))
mapfile -t libraries < <(for f in "${elf_files[@]}"; do ldd "$f" 2>/dev/null || true; done |
  awk '$2 == "=>" && $3 ~ /^\// {print $3}' | grep -v "^$stage" | sort -u)
lib_packages=$(for lib in "${libraries[@]}"; do
  dpkg -S "$lib" 2>/dev/null || dpkg -S "$(readlink -f "$lib")" 2>/dev/null || true
done | cut -d: -f1 | sort -u | paste -sd, | sed 's/,/, /g')
depends="${lib_packages:+$lib_packages, }python3, python3-torch, python3-numpy, libopenblas0-pthread"

install -d "$root/DEBIAN"
installed_size=$(du -sk --apparent-size "$root" | cut -f1)
maintainer="${DEBFULLNAME:-OwnVoice} <${DEBEMAIL:-$(id -un)@$(hostname)}>"
sed -e "s/@VERSION@/$version/" -e "s/@ARCH@/$arch/" -e "s/@INSTALLED_SIZE@/$installed_size/" \
  -e "s/@DEPENDS@/$depends/" -e "s/@MAINTAINER@/$maintainer/" packaging/deb/control.in >"$root/DEBIAN/control"
install -m 755 packaging/deb/postrm "$root/DEBIAN/postrm"

# zstd by default (decision 51): 1.4 s for 84 MB, where gzip took 37 s for 94 MB and xz takes
# minutes. dpkg reads it from Debian 12 and Ubuntu 18.04 on; the package needs Debian 12's
# python3-torch anyway. DEB_COMPRESSION=gzip for an older dpkg, xz for the smallest file.
rm -f "$deb"
dpkg-deb --root-owner-group -Z"${DEB_COMPRESSION:-zstd}" --build "$root" "$deb" >/dev/null
echo "package-deb: $(du -h "$deb" | cut -f1) ($(( installed_size / 1024 )) MiB installed), depends on: $depends"
echo "$deb" >&3
