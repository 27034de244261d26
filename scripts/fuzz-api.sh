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

# Waits for the service and its base model (a proofread before it is ready is a documented 503, which
# would read as a server error), then signs up as a browser does (CSRF cookie and header, decision
# 2), confirms the address, leaves onboarding's first step so Convert and Create open, adds a Voice
# and makes an API key. Prints the key and the Voice's id.
if ! setup=$(BASE="$base" SERVER_PID="$server_pid" OUTBOX="$work/data/outbox" node --input-type=module - <<'NODE'
import { readdir, readFile } from 'node:fs/promises';
const base = process.env.BASE;
const serverPid = Number(process.env.SERVER_PID);
const deadline = Date.now() + 120_000;
for (;;) {
  try {
    process.kill(serverPid, 0);
  } catch {
    throw new Error('the server stopped while starting');
  }
  const engine = await fetch(`${base}/api/public/engine`).then((res) => (res.ok ? res.json() : null), () => null);
  if (engine?.state === 'ready') break;
  if (Date.now() > deadline) throw new Error(`the base model is not ready after 120 s: ${JSON.stringify(engine)}`);
  await new Promise((resolve) => setTimeout(resolve, 500));
}
const csrf = await fetch(`${base}/api/csrf-token`);
const cookie = csrf.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
const { csrfToken } = await csrf.json();
let session;
async function call(method, path, body) {
  const headers = { cookie, 'x-csrf-token': csrfToken };
  if (session) headers.authorization = `Bearer ${session}`;
  if (body !== undefined && !(body instanceof FormData)) headers['content-type'] = 'application/json';
  const res = await fetch(`${base}${path}`, {
    method,
    headers,
    body: body instanceof FormData ? body : JSON.stringify(body),
  });
  const answer = await res.json();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(answer)}`);
  return answer;
}
const password = 'Passw0rdFuzz';
const registered = await call('POST', '/api/auth/register', {
  username: 'fuzzer',
  email: 'fuzzer@example.com',
  password,
});
session = registered.token;
// Confirms the address as its owner does, with the link that sign-up mailed (to the data folder's
// outbox, as there is no SMTP_URL): a key is made only from a confirmed account.
let token;
while (!token) {
  if (Date.now() > deadline) throw new Error('no confirmation link in the outbox after 120 s');
  await new Promise((resolve) => setTimeout(resolve, 250));
  const files = await readdir(process.env.OUTBOX).catch(() => []);
  for (const file of files.filter((name) => name.endsWith('.json'))) {
    const mail = JSON.parse(await readFile(`${process.env.OUTBOX}/${file}`, 'utf8'));
    token ??= /[?&]token=([^&\s]+)/.exec(mail.text)?.[1];
  }
}
await call('POST', '/api/auth/email/verify', { token: decodeURIComponent(token) });
await call('PATCH', '/api/auth/onboarding', { step: 'training_started' });
// A Voice to read and to be refused with (it stays pending): enough pasted writing to train on.
const sentences = Array.from(
  { length: 400 },
  (_, i) => `On day ${i + 1} the walk to the harbour took ${(i % 7) + 2} hours, and the ${['gulls', 'boats', 'nets', 'tides'][i % 4]} were ${['loud', 'late', 'calm', 'grey'][(i * 3) % 4]}.`,
);
const form = new FormData();
form.set('name', 'Fuzzed Voice');
form.set('text', sentences.join(' '));
const voice = await call('POST', '/api/loras', form);
const { secret } = await call('POST', '/api/auth/api-keys', {
  name: 'schemathesis',
  scopes: ['voices:read', 'convert', 'create', 'training'],
  rateLimitPerMinute: 600,
  // Making a key asks for the password again (a key outlives the session).
  currentPassword: password,
});
console.log(`${secret} ${voice._id}`);
NODE
); then
  echo "Could not start the server or set up its user; the server's log:" >&2
  tail -n 40 "$work/server.log" >&2
  exit 1
fi
read -r api_key voice_id <<<"$setup"

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
