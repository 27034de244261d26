#!/usr/bin/env bash
# Fuzzes the public API against its own OpenAPI document (GET /api/docs/openapi.json) with
# Schemathesis: the built service on a free loopback port over an empty data folder, one signed-up
# user with an API key of every scope and one Voice, then every documented operation with generated
# requests, valid and not. It passes when no answer is a 5xx and every answer matches the schema the
# document gives for its status. Bounded in time (FUZZ_SECONDS of fuzzing, about a minute more to
# start); the server is stopped and the folder removed however it ends.
#
# Nothing is excluded: the document lists only what an API key reaches (decision 27), none of which
# signs the user out, deletes anything or needs a webhook's signature. The two server-sent streams
# and /v1's `stream: true` answer their refusals as JSON before any event, and Schemathesis reads a
# stream to its end (there is no awake Voice, so none runs long).
#
# Schemathesis comes from PyPI, pinned, into a virtual environment kept per machine in
# ~/.cache/ownvoice (installed once per version). A failure is reproduced with the printed seed:
# FUZZ_SEED=<seed> bash scripts/fuzz-api.sh. Arguments are passed on to `schemathesis run` (such as
# `--checks all` to look further than CI does).
set -euo pipefail
cd "$(dirname "$0")/.."

SCHEMATHESIS_VERSION=4.32.5
FUZZ_SECONDS=${FUZZ_SECONDS:-150}
cache="${XDG_CACHE_HOME:-$HOME/.cache}/ownvoice"
venv="$cache/schemathesis-venv-$SCHEMATHESIS_VERSION"

if ! "$venv/bin/schemathesis" --version >/dev/null 2>&1; then
  echo "Installing schemathesis $SCHEMATHESIS_VERSION into $venv"
  rm -rf "$venv"
  mkdir -p "$cache"
  python3 -m venv "$venv"
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "schemathesis==$SCHEMATHESIS_VERSION"
fi

[ -f apps/server/dist/main.js ] || npm run build --silent

work=$(mktemp -d /tmp/ownvoice-fuzz.XXXXXX)
server_pid=
cleanup() {
  if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then
    kill "$server_pid"
    wait "$server_pid" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
base="http://127.0.0.1:$port"

# Loopback only, PGlite in the temp folder (never a DATABASE_URL from the environment), the house
# model, no payments, and no training worker: the Voice stays pending, so nothing trains beside the
# fuzzing. Usage limits high enough that no run spends them (each proofread and draft costs one).
env -u DATABASE_URL -u SMTP_URL \
  PORT="$port" HOST=127.0.0.1 OWNVOICE_DATA_DIR="$work/data" OWNVOICE_BASE_MODEL=tiny \
  OWNVOICE_BILLING=none OWNVOICE_IN_PROCESS_WORKER=false \
  OWNVOICE_STARTER_PROOFREADS=1000000 OWNVOICE_STARTER_SHORT_CONTENT=1000000 LOG_LEVEL=warn \
  node apps/server/dist/main.js >"$work/server.log" 2>&1 &
server_pid=$!

# Signs up as a person does in the browser (waits for the base model first: a proofread before it
# is ready is a documented 503, which would read as a server error), confirms the address, makes an
# API key of every scope (scripts/api-journey/account.ts), then, with the key, adds a Voice to read
# and to be refused with: enough pasted writing to train on; it stays pending.
if ! account=$(npx tsx scripts/api-journey/account.ts --base "$base" --outbox "$work/data/outbox" \
  --username fuzzer --scopes voices:read,convert,create,training --rate-limit 600 --server-pid "$server_pid"); then
  echo "Could not start the server or set up its user; the server's log:" >&2
  tail -n 40 "$work/server.log" >&2
  exit 1
fi
api_key=$(node -e 'console.log(JSON.parse(process.argv[1]).key)' "$account")
voice_id=$(BASE="$base" KEY="$api_key" node --input-type=module -e '
const things = ["gulls", "boats", "nets", "tides"], moods = ["loud", "late", "calm", "grey"];
const form = new FormData();
form.set("name", "Fuzzed Voice");
form.set("text", Array.from({ length: 400 }, (_, i) =>
  `On day ${i + 1} the walk to the harbour took ${(i % 7) + 2} hours, and the ${things[i % 4]} were ${moods[(i * 3) % 4]}.`).join(" "));
const res = await fetch(`${process.env.BASE}/api/loras`, { method: "POST", headers: { authorization: `Bearer ${process.env.KEY}` }, body: form });
if (!res.ok) throw new Error(`POST /api/loras: ${res.status} ${await res.text()}`);
console.log((await res.json())._id);')

# Half the path ids are the real Voice, so its reads answer 200 and its Convert is refused for
# being asleep, not only for being unknown.
cat >"$work/schemathesis.toml" <<TOML
headers = { Authorization = "Bearer \${OWNVOICE_FUZZ_KEY}" }

[dictionaries.voice]
values = ["$voice_id"]

[parameters]
"path.id" = { dictionary = "voice", probability = 0.5 }
TOML

# One worker: Python 3.11's ast parser keeps one recursion counter for all threads, so Hypothesis
# describing strategies in two at once fails with "AST constructor recursion depth mismatch"; and
# the key's 600 requests a minute bound the run anyway, hence the client's own 590.
seed=()
[ -n "${FUZZ_SEED:-}" ] && seed=(--seed "$FUZZ_SEED")
status=0
# The hooks (fuzz_media_types.py) give the bodies of media types Schemathesis cannot make itself.
hooks_dir="$PWD/scripts"
(cd "$work" && OWNVOICE_FUZZ_KEY="$api_key" PYTHONPATH="$hooks_dir" SCHEMATHESIS_HOOKS=fuzz_media_types \
  timeout $((FUZZ_SECONDS + 60)) \
  "$venv/bin/schemathesis" --config-file "$work/schemathesis.toml" run "$base/api/docs/openapi.json" \
  --checks not_a_server_error,response_schema_conformance \
  --workers 1 --max-time "$FUZZ_SECONDS" --max-examples 100 --rate-limit 590/m --request-timeout 30 \
  --generation-database none --no-color "${seed[@]}" "$@") || status=$?

if [ "$status" -ne 0 ]; then
  echo "Schemathesis failed (exit $status); the server's log:" >&2
  tail -n 60 "$work/server.log" >&2
fi
exit "$status"
