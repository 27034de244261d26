#!/usr/bin/env bash
# npm run demo:record: films the real product for the landing page (record.demo.ts) and writes
# apps/web/public/demo/{convert-demo.webm,convert-demo-poster.jpg}.
# Builds the service, and installs Debian's ffmpeg when it is missing (Playwright's video recorder
# and the final compression both use it).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out="$root/apps/web/public/demo"
max_bytes=$((2 * 1024 * 1024))

if ! command -v ffmpeg >/dev/null 2>&1; then
  if [ "$(id -u)" -eq 0 ]; then sudo=(); elif sudo -n true 2>/dev/null; then sudo=(sudo); else
    echo "The demo recording needs ffmpeg: sudo apt-get install -y ffmpeg" >&2
    exit 1
  fi
  echo "Installing ffmpeg"
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends ffmpeg >/dev/null
fi
ffmpeg=$(command -v ffmpeg)
(cd "$root" && npm run build >/dev/null)

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Playwright looks for its own ffmpeg build under its browsers folder; Debian's does the same job.
revision=$(node -p "require('$root/node_modules/playwright-core/browsers.json').browsers.find((b) => b.name === 'ffmpeg').revision")
mkdir -p "$work/browsers/ffmpeg-$revision"
ln -s "$ffmpeg" "$work/browsers/ffmpeg-$revision/ffmpeg-linux"

cd "$root"
PLAYWRIGHT_BROWSERS_PATH="$work/browsers" DEMO_WORK_DIR="$work" E2E_DATA_DIR="$work/data" \
  E2E_PORT="${E2E_PORT:-8093}" npx playwright test -c e2e/demo/playwright.demo.config.ts

# VP9 at a constant quality: the screen is mostly still, so it stays far under the 2 MB budget.
"$ffmpeg" -loglevel error -y -i "$work/raw.webm" -an -c:v libvpx-vp9 -crf 40 -b:v 0 -row-mt 1 \
  -vf "scale=1280:-2" "$work/convert-demo.webm"
size=$(stat -c %s "$work/convert-demo.webm")
if [ "$size" -gt "$max_bytes" ]; then
  echo "The compressed video is $size bytes, over the 2 MB budget." >&2
  exit 1
fi

mkdir -p "$out"
cp "$work/convert-demo.webm" "$out/convert-demo.webm"
cp "$work/poster.jpg" "$out/convert-demo-poster.jpg"
echo "Wrote $out (video: $size bytes)."
