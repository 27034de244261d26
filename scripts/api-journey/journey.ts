// A developer's program that uses OwnVoice with an API key and nothing else (no browser, no
// session): it uploads writing and trains a Voice, follows the training's events, is told by a
// signed webhook that it ended, writes with the Voice through the `openai` SDK in TypeScript and in
// Python (the SDK examples of docs/api.md, run as written) each time after the Voice had gone to
// sleep, and takes the Voice home as a package whose PEFT export it loads with peft on the real
// base model, and as one merged model file that transformers loads and finds writing as the PEFT
// export does. Exits 0 when every step did what docs/api.md says; otherwise says which did not.
//
//   OWNVOICE_URL=… OWNVOICE_KEY=… OWNVOICE_WEBHOOK_SECRET=… npx tsx scripts/api-journey/journey.ts \
//     --writing FILE --webhook-port N --python PY --base-gguf FILE
//
// The key needs the scopes training, voices:read, convert and create and may wake Voices; the
// webhook endpoint (http://127.0.0.1:<port>/ownvoice-webhook) is made signed in, as webhooks are
// (account.ts). PY imports openai, transformers and peft (scripts/reference-python.sh). The server
// should put a Voice to sleep after a minute idle (OWNVOICE_VOICE_IDLE_MINUTES=1), or this waits
// for its own idle period. Prints `voice <id>` once the Voice exists, then one line per step.
import { execFile } from 'node:child_process';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import path from 'node:path';
import { parseArgs, promisify } from 'node:util';
import JSZip from 'jszip';
import { REPO, sdkExample } from './doc-examples';

const run = promisify(execFile);
/** The chat template's tokens and the rewrite prompt's markers (engine voice/prompts.ts): never a Voice's words. */
const PROMPT_LEAK = /<\|im_(start|end)\|>|<\|endoftext\|>|Plain text:|In my voice:/i;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const MINUTE_MS = 60_000;
const started = Date.now();
/** How long the journey has run, for its lines: where its minutes go. */
const at = () => `(at ${Math.round((Date.now() - started) / 1000)} s)`;

const { values: args } = parseArgs({
  options: {
    writing: { type: 'string' },
    'webhook-port': { type: 'string' },
    python: { type: 'string' },
    'base-gguf': { type: 'string' },
  },
});
const BASE = process.env.OWNVOICE_URL;
const KEY = process.env.OWNVOICE_KEY;
const WEBHOOK_SECRET = process.env.OWNVOICE_WEBHOOK_SECRET;
if (!BASE || !KEY || !WEBHOOK_SECRET || !args.writing || !args['webhook-port'] || !args.python || !args['base-gguf']) {
  console.error(
    'usage: OWNVOICE_URL=… OWNVOICE_KEY=… OWNVOICE_WEBHOOK_SECRET=… journey.ts --writing FILE --webhook-port N --python PY --base-gguf FILE',
  );
  process.exit(2);
}

/** What went wrong in a step, said plainly. */
function check(holds: boolean, what: string): asserts holds {
  if (!holds) throw new Error(what);
}

interface Voice {
  _id: string;
  status: string;
  statusMessage?: string | null;
}
interface TrainingEvent {
  id: string;
  stage: string;
  level: string;
  message: string;
}
interface WebhookEvent {
  id: string;
  type: string;
  data: { voice: { id: string; status: string } };
}

/** One call with the key; the answer's JSON, or an error with its status and body. */
async function api<T>(method: string, route: string, body?: FormData): Promise<T> {
  const res = await fetch(`${BASE}${route}`, { method, headers: { authorization: `Bearer ${KEY}` }, body });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${route} answered ${res.status}: ${text}`);
  return JSON.parse(text) as T;
}

/**
 * docs/api.md's check of a delivery: Stripe's scheme, `t=<unix seconds>,v1=<hex HMAC-SHA256 of
 * "<t>.<raw body>">`, within five minutes.
 */
function signedByOwnVoice(header: string, rawBody: string): boolean {
  const parts = Object.fromEntries(header.split(',').map((part) => part.split('=', 2) as [string, string]));
  const t = Number(parts.t);
  if (!Number.isInteger(t) || Math.abs(Date.now() / 1000 - t) > 300) return false;
  const expected = createHmac('sha256', WEBHOOK_SECRET as string)
    .update(`${t}.${rawBody}`)
    .digest();
  const given = Buffer.from(parts.v1 ?? '', 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** The webhook receiver: takes signed deliveries (204), refuses unsigned ones (400). */
function receiveWebhooks(port: number) {
  const received: WebhookEvent[] = [];
  let refused = 0;
  const server = createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (piece: string) => {
      raw += piece;
    });
    req.on('end', () => {
      if (req.url !== '/ownvoice-webhook' || !signedByOwnVoice(String(req.headers['ownvoice-signature'] ?? ''), raw)) {
        refused += 1;
        res.writeHead(400).end();
        return;
      }
      received.push(JSON.parse(raw) as WebhookEvent);
      res.writeHead(204).end();
    });
  });
  server.listen(port, '127.0.0.1');
  return {
    /** The first delivery of `type` about `voiceId`, waited for up to `ms`. */
    async next(type: string, voiceId: string, ms: number): Promise<WebhookEvent> {
      const deadline = Date.now() + ms;
      for (;;) {
        const event = received.find((e) => e.type === type && e.data.voice.id === voiceId);
        if (event) return event;
        check(
          Date.now() < deadline,
          `no ${type} webhook within ${ms / 1000} s (${refused} unsigned deliveries refused)`,
        );
        await sleep(500);
      }
    },
    close: () => server.close(),
  };
}

/** Stage 1: a Voice from the writing, as OpenAI's fine-tuning job is created from a file. */
async function uploadWriting(file: string): Promise<Voice> {
  const form = new FormData();
  form.set('name', 'Journey');
  form.append('files', new Blob([readFileSync(file)], { type: 'text/plain' }), path.basename(file));
  const voice = await api<Voice>('POST', '/api/loras', form);
  check(voice.status === 'pending', `a new Voice is pending, not ${voice.status}`);
  return voice;
}

/** Stage 2: its events until it ends, printed as they come; the stages in their order. */
async function followTraining(id: string): Promise<TrainingEvent[]> {
  const deadline = Date.now() + 40 * MINUTE_MS;
  let shown = 0;
  for (;;) {
    const events = await api<TrainingEvent[]>('GET', `/api/loras/${id}/training-events`);
    for (const event of events.slice(shown)) console.log(`  event ${event.stage}: ${event.message} ${at()}`);
    shown = events.length;
    const voice = await api<Voice>('GET', `/api/loras/${id}`);
    check(voice.status !== 'failed', `the training failed: ${voice.statusMessage}`);
    if (voice.status === 'ready') return api<TrainingEvent[]>('GET', `/api/loras/${id}/training-events`);
    check(Date.now() < deadline, `still ${voice.status} after 40 minutes`);
    await sleep(5000);
  }
}

function checkStages(events: TrainingEvent[]): void {
  const stages = events.map((e) => e.stage).filter((stage, i, all) => stage !== all[i - 1]);
  const expected = ['queued', 'extract', 'pairs', 'train', 'export', 'evaluate', 'succeeded'];
  check(
    JSON.stringify(stages) === JSON.stringify(expected),
    `the events' stages are ${stages.join(', ')}, not ${expected.join(', ')}`,
  );
}

/** Waits until the Voice is asleep (`ready`), as after training or an idle period. */
async function asleep(id: string, ms: number): Promise<Voice> {
  const deadline = Date.now() + ms;
  for (;;) {
    const voice = await api<Voice>('GET', `/api/loras/${id}`);
    if (voice.status === 'ready') return voice;
    check(Date.now() < deadline, `the Voice is still ${voice.status} after ${ms / 1000} s`);
    await sleep(2000);
  }
}

/**
 * Runs docs/api.md's SDK example of `language` as written, with the environment it reads, and
 * checks what it prints: the Voice among the models, its streamed writing, and model_not_found.
 */
async function runSdkExample(language: 'ts' | 'python', voiceId: string, work: string): Promise<string> {
  const env = { ...process.env, OWNVOICE_URL: BASE, OWNVOICE_KEY: KEY, VOICE_ID: voiceId, HF_HUB_OFFLINE: '1' };
  // Under the repository's node_modules, so that `openai` resolves as it does for a project.
  // .mts: a module wherever it stands (top-level await), as the example is written.
  const file = language === 'ts' ? path.join(work, 'example.mts') : path.join(work, 'example.py');
  writeFileSync(file, `${sdkExample(language)}${language === 'ts' ? '\nexport {};\n' : ''}`);
  const [command, commandArgs] =
    language === 'ts' ? [path.join(REPO, 'node_modules', '.bin', 'tsx'), [file]] : [args.python as string, [file]];
  const { stdout, stderr } = await run(command, commandArgs, { env, timeout: 10 * MINUTE_MS });
  const lines = stdout.split('\n');
  check(
    lines.some((line) => line.startsWith(`${voiceId} Journey`)),
    `the models listed lack the Voice: ${stdout}`,
  );
  // The streamed text, less the models listed before it and the not-found line after it (Python
  // prints that straight after the stream, on its last line).
  const written = lines
    .filter((line) => !line.startsWith(voiceId))
    .join('\n')
    .replace(/model_not_found\s+\S+\s*$/, '');
  check(written.trim().split(/\s+/).length >= 5, `the Voice wrote too little: ${JSON.stringify(written)}`);
  check(!PROMPT_LEAK.test(written), `the Voice wrote its prompt's words: ${JSON.stringify(written)}`);
  check(
    `${stdout}${stderr}`.includes('model_not_found'),
    `no model_not_found for an unknown model: ${stdout}${stderr}`,
  );
  return written.trim();
}

/** GET a file of the Voice's with the key; its bytes. */
async function downloadFile(id: string, what: 'package' | 'merged-model'): Promise<Buffer> {
  const res = await fetch(`${BASE}/api/loras/${id}/${what}`, { headers: { authorization: `Bearer ${KEY}` } });
  check(res.ok, `the ${what} download answered ${res.status}: ${await res.clone().text()}`);
  const data = Buffer.from(await res.arrayBuffer());
  check(Number(res.headers.get('content-length')) === data.length, `the ${what} came short of its length`);
  return data;
}

/**
 * Stage 5: the package, unzipped as a person does, its PEFT export loaded with peft; and the
 * merged model, loaded in transformers beside it.
 */
async function loadPackageWithPeft(id: string, work: string) {
  const merged = path.join(work, 'merged.gguf');
  writeFileSync(merged, await downloadFile(id, 'merged-model'));
  const zip = await JSZip.loadAsync(await downloadFile(id, 'package'));
  const unzipped = path.join(work, 'package');
  for (const [name, entry] of Object.entries(zip.files)) {
    if (entry.dir) continue;
    mkdirSync(path.dirname(path.join(unzipped, name)), { recursive: true });
    writeFileSync(path.join(unzipped, name), await entry.async('nodebuffer'));
  }
  const { stdout } = await run(
    args.python as string,
    [
      path.join(import.meta.dirname, 'load_peft.py'),
      '--peft',
      path.join(unzipped, 'peft'),
      '--base-gguf',
      args['base-gguf'] as string,
      '--merged-gguf',
      merged,
    ],
    { env: { ...process.env, HF_HUB_OFFLINE: '1' }, timeout: 10 * MINUTE_MS },
  );
  const loaded = JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as {
    baseModel: string;
    logitShift: number;
    largestLogit: number;
    text: string;
    mergedDiff: number;
  };
  check(/^HuggingFaceTB\/SmolLM2-/.test(loaded.baseModel), `the export names ${loaded.baseModel} as its base`);
  // A trained adapter moves the logits; one that loaded as nothing would leave them as they were.
  check(loaded.logitShift > 1e-3 * loaded.largestLogit, `the adapter moves no logit: ${stdout}`);
  check(loaded.text.trim().length > 0, 'the adapted model wrote nothing');
  // The merged file is the same Voice: its F16 projections round it a little, far less than the
  // adapter moves the base (forward-agreement allows llama.cpp 2% of the largest logit on F16).
  check(
    loaded.mergedDiff < 0.25 * loaded.logitShift && loaded.mergedDiff < 2e-2 * loaded.largestLogit,
    `the merged model is not the adapted one: ${stdout}`,
  );
  return { ...loaded, mergedMb: statSync(merged).size / (1024 * 1024) };
}

async function journey(): Promise<void> {
  mkdirSync(path.join(REPO, 'node_modules', '.cache'), { recursive: true });
  const work = mkdtempSync(path.join(REPO, 'node_modules', '.cache', 'ownvoice-journey-'));
  const hooks = receiveWebhooks(Number(args['webhook-port']));
  try {
    const voice = await uploadWriting(args.writing as string);
    console.log(`voice ${voice._id}`);

    const events = await followTraining(voice._id);
    checkStages(events);
    console.log(`trained: ${events.length} events, stages in order ${at()}`);

    const told = await hooks.next('voice.training.succeeded', voice._id, 2 * MINUTE_MS);
    check(told.data.voice.status === 'ready', `the webhook says ${told.data.voice.status}`);
    console.log(`webhook ${told.id}: ${told.type}, signature checked`);

    // A trained Voice is asleep until something wakes it: here, the key's first request.
    await asleep(voice._id, 0);
    const written = await runSdkExample('ts', voice._id, work);
    console.log(`TypeScript SDK on the sleeping Voice wrote: ${written} ${at()}`);

    const loaded = await loadPackageWithPeft(voice._id, work);
    console.log(
      `package: peft on ${loaded.baseModel} moves the logits by up to ${loaded.logitShift.toFixed(3)} and writes: ${loaded.text}`,
    );
    console.log(
      `merged model: ${loaded.mergedMb.toFixed(0)} MB, its logits within ${loaded.mergedDiff.toFixed(4)} of peft's ${at()}`,
    );

    const slept = await asleep(voice._id, 10 * MINUTE_MS);
    console.log(`asleep again: ${slept.statusMessage} ${at()}`);
    const wrote = await runSdkExample('python', voice._id, work);
    console.log(`Python SDK on the sleeping Voice wrote: ${wrote} ${at()}`);
    console.log('journey done');
  } finally {
    hooks.close();
    rmSync(work, { recursive: true, force: true });
  }
}

journey().catch((error: unknown) => {
  console.error(`journey failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
