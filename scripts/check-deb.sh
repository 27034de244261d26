#!/usr/bin/env bash
# Checks the offline app's Debian package on this machine: builds it (or takes the .deb given as
# the first argument), installs it with dpkg, starts the launcher as an ordinary user on an empty
# home, checks the service, the web app, the model runtime and the trainer's imports, stops it as
# Ctrl+C would, and removes the package again. Needs root or passwordless sudo; without either it
# says so and passes, except in CI (CI=true), where it fails.
set -euo pipefail
cd "$(dirname "$0")/.."
started=$SECONDS
APP=/usr/lib/ownvoice

step() { echo "check-deb [$((SECONDS - started))s] $*"; }
fail() { echo "check-deb: FAILED: $*" >&2; exit 1; }
installed() { [ "$(dpkg-query -W -f '${db:Status-Status}' ownvoice 2>/dev/null)" = installed ]; }

if [ "$(id -u)" -eq 0 ]; then
  SUDO=()
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
  SUDO=(sudo -n)
else
  echo "check-deb: installing a package needs root or passwordless sudo; not checked." >&2
  [ "${CI:-}" = true ] && exit 1
  exit 0
fi
# Never replace or remove an installation someone uses.
if installed; then
  fail "the ownvoice package is already installed here; remove it (dpkg -r ownvoice) to run this check"
fi

deb=${1:-}
if [ -z "$deb" ]; then
  step "building the package"
  deb=$(bash scripts/package-deb.sh)
fi
[ -f "$deb" ] || fail "no package at $deb"
step "package: $deb ($(du -h "$deb" | cut -f1))"

home=$(mktemp -d /tmp/ownvoice-check-home.XXXXXX)
log=$home/launcher.log
: >"$log"
launcher=
cleanup() {
  if [ -n "$launcher" ] && kill -0 "$launcher" 2>/dev/null; then kill -TERM "$launcher" || true; wait "$launcher" || true; fi
  if installed; then "${SUDO[@]}" dpkg -r ownvoice >/dev/null || true; fi
  rm -rf "$home"
}
trap cleanup EXIT

step "installing"
"${SUDO[@]}" dpkg -i "$deb" || fail "dpkg -i failed (missing dependencies? run scripts/install-system-deps.sh)"
[ -x /usr/bin/ownvoice ] && [ -x $APP/bin/node ] || fail "the launcher or the bundled Node.js is missing"
[ "$(/usr/bin/ownvoice --version)" = "$(dpkg-deb -f "$deb" Version)" ] || fail "ownvoice --version disagrees with the package"

# As an ordinary user when we can, so a write into the installed files (read-only for users) shows.
run_as=()
if [ "$(id -u)" -eq 0 ] && id nobody >/dev/null 2>&1; then
  chown nobody "$home"
  run_as=(setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups)
fi
step "starting the launcher${run_as:+ as nobody} with HOME=$home"
# The house model, so the check needs no download and shows llama.cpp's native build runs here.
# In a process group of its own (job control on), as in a terminal, so Ctrl+C can be sent below.
set -m
"${run_as[@]}" env -i HOME="$home" PATH=/usr/bin:/bin LANG=C.UTF-8 OWNVOICE_BASE_MODEL=tiny LOG_LEVEL=warn \
  /usr/bin/ownvoice --no-browser >"$log" 2>&1 &
launcher=$!
set +m

url=
for _ in $(seq 1 240); do
  url=$(sed -n 's/^OwnVoice is running at \(http:[^ ]*\) .*/\1/p' "$log")
  [ -n "$url" ] && break
  kill -0 "$launcher" 2>/dev/null || { cat "$log" >&2; fail "the launcher stopped before the service answered"; }
  sleep 0.5
done
[ -n "$url" ] || { cat "$log" >&2; fail "the launcher did not report the service within two minutes"; }
step "the launcher says: $url"
case $url in http://127.0.0.1:*) ;; *) fail "the service is not on the loopback address: $url" ;; esac

# Answers with the bundled Node.js: curl need not be installed.
fetch() {
  $APP/bin/node -e '
    fetch(process.argv[1]).then(async (r) => { process.stdout.write(`${r.status}\n${await r.text()}`); },
      (e) => { console.log(`000\n${e.message}`); });' "$url$1"
}
health=$(fetch /api/health)
[ "$(head -n 1 <<<"$health")" = 200 ] || fail "/api/health answered: $health"
step "/api/health: $(tail -n +2 <<<"$health")"
page=$(fetch /download)
[ "$(head -n 1 <<<"$page")" = 200 ] && grep -q '<div id="root">' <<<"$page" || fail "the web app is not served: $(head -c 300 <<<"$page")"
step "the web app is served"

engine=
for _ in $(seq 1 120); do
  engine=$(fetch /api/public/engine | tail -n +2)
  grep -q '"state":"starting"' <<<"$engine" || break
  sleep 0.5
done
grep -q '"state":"ready"' <<<"$engine" || fail "the model runtime did not start: $engine"
step "the model runtime is ready: $engine"

# The upload reader, the Voice package reader and the merged-model builder: child processes that
# run the engine's TypeScript through tsx (the engine's isolation/child-pool.ts protocol:
# { id, job } in, { id, reply, rss } out). Run from /, as a user's shell would be: the checkout
# this script runs from may be closed to that user.
cd /
child_answers() { # entry, job as JSON, a check of the reply as JavaScript
  "${run_as[@]}" env -i HOME="$home" PATH=/usr/bin:/bin $APP/bin/node -e '
    const [entry, job, check] = process.argv.slice(1);
    const child = require("node:child_process").fork(entry, [], { serialization: "advanced" });
    const timer = setTimeout(() => { console.error("no answer"); process.exit(1); }, 60_000);
    child.on("message", (m) => {
      if (m === "ready") {
        const parsed = JSON.parse(job);
        if (parsed.data) parsed.data = Buffer.from(parsed.data);
        return child.send({ id: 1, job: parsed });
      }
      clearTimeout(timer);
      child.disconnect();
      if (!new Function("reply", `return ${check}`)(m.reply)) { console.error(JSON.stringify(m)); process.exit(1); }
    });' "$@"
}
child_answers $APP/packages/engine/bin/extract-child.mjs '{"mode":"raw","name":"a.txt","data":"Plain words."}' \
  'reply.ok === true' || fail "the upload reader does not run"
step "the upload reader reads a file"
child_answers $APP/packages/engine/bin/voice-package-child.mjs \
  '{"packagePath":"/nonexistent.zip","folder":"/nonexistent","ggufName":"v.gguf","baseSha256":"0","baseModelName":"x"}' \
  'reply.ok === false && /not an OwnVoice Voice package/.test(reply.message)' ||
  fail "the Voice package reader does not run"
step "the Voice package reader answers"
child_answers $APP/packages/engine/bin/merge-child.mjs \
  '{"basePath":"/nonexistent.gguf","adapterPath":"/nonexistent-adapter.gguf","outPath":"/nonexistent/model.gguf"}' \
  '/Cannot open \/nonexistent\.gguf/.test(reply.message)' ||
  fail "the merged-model builder does not run"
step "the merged-model builder answers"

# A Voice's evaluation reads the engine's corpus at the end of every training run: the neutral
# paragraphs it rewrites, other writers' passages for its style scale, neutral prose for its
# classifier. Missing, every Voice would fail at its last stage.
(cd $APP/packages/engine && "${run_as[@]}" env -i HOME="$home" PATH=/usr/bin:/bin $APP/bin/node --input-type=module -e '
  import { register } from "tsx/esm/api";
  register();
  const { evaluationParagraphs, otherWriterSamples, readsAs } = await import("./src/voice/evaluate.ts");
  const [paragraphs, others] = [evaluationParagraphs(), otherWriterSamples()];
  const read = readsAs(others.slice(0, 12), paragraphs.slice(0, 4), paragraphs.slice(4, 8));
  if (paragraphs.length < 20 || others.length < 20 || !read) process.exit(1);') ||
  fail "a Voice's evaluation cannot read the engine's corpus"
step "a Voice's evaluation reads its corpus"

(cd $APP/packages/engine/python && /usr/bin/python3 -c 'import torch, numpy, ownvoice_trainer.train') ||
  fail "the trainer's imports fail with the package's dependencies"
step "the trainer imports torch and numpy"
[ -d "$home/.local/share/ownvoice" ] || fail "no data folder under the user's home"
open_files=$(find "$home/.local/share/ownvoice" -perm /077 -printf '%m %P\n' | head -5)
[ -z "$open_files" ] || fail "the data folder has files other users may read or write: $open_files"
step "the data folder and everything in it is private to its user"

step "stopping with Ctrl+C (SIGINT to the launcher's process group, as a terminal sends it)"
kill -INT -- "-$launcher"
status=0
wait "$launcher" || status=$?
launcher=
[ "$status" -eq 0 ] || { cat "$log" >&2; fail "the launcher exited with $status"; }
[ "$(fetch /api/health | head -n 1)" = 000 ] || fail "the service still answers after the launcher stopped"
sed 's/^/  launcher | /' "$log"

step "removing the package"
"${SUDO[@]}" dpkg -r ownvoice
[ ! -e /usr/bin/ownvoice ] && [ ! -e $APP ] || fail "dpkg -r left files behind"
[ -d "$home/.local/share/ownvoice" ] || fail "removing the package removed the user's data"
step "passed"
