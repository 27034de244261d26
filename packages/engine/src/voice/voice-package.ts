// A Voice as one .zip a person takes home (the manifest's schema is shared's voice-package.ts):
//
//   manifest.json                   base model (file, SHA-256), training settings, evaluation figures
//   voice.gguf                      the LoRA adapter for llama.cpp and the apps built on it (Ollama)
//   peft/adapter_config.json        the same adapter for transformers with PEFT (export.ts)
//   peft/adapter_model.safetensors
//   Modelfile                       Ollama: the base model, the adapter, Convert's prompt
//   README.md                       how to use each, and how to import it into another OwnVoice
//
// Adapters are stored, not deflated: float weights barely compress, and a stored entry reads back
// without inflating. Reading one back is voice-package-import.ts's, in a child process.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import {
  VOICE_PACKAGE_FILES,
  VOICE_PACKAGE_FORMAT,
  VOICE_PACKAGE_VERSION,
  type VoiceEvaluation,
  type VoicePackageManifest,
  voicePackageManifestSchema,
} from '@ownvoice/shared';
import JSZip from 'jszip';
import { peftConfig } from '../adapters/export.js';
import { PACKAGED_MODELS, type PackagedModel, TRANSFORMERS_WEIGHTS } from '../base-model/base-model.js';
import { rewritePrompt } from './prompts.js';
import { REWRITE_REPEAT_PENALTY } from './rewrite.js';

type PackagedBase = VoicePackageManifest['baseModel'];

/** `hf:owner/repo:quant` as Ollama names it; null for a file that only exists on one machine. */
export const ollamaModelName = (huggingFace: string | null): string | null =>
  huggingFace ? `hf.co/${huggingFace.replace(/^hf:/, '')}` : null;

/**
 * The Hugging Face repository transformers loads the base model from, for a model OwnVoice knows
 * (by its name, or the hf: URI of a package made before names were kept); null for a file of one's own.
 */
export const transformersBase = (baseModel: PackagedBase): string | null =>
  TRANSFORMERS_WEIGHTS.get(baseModel.name ?? baseModel.huggingFace ?? '') ??
  packagedModelOf(baseModel)?.huggingFace ??
  null;

/**
 * The packaged model a base is, by its name or else by its SHA-256: a server started with the
 * packaged file's path (as the tests and the offline app are) records the path, not the name.
 */
const packagedModelOf = (baseModel: PackagedBase): PackagedModel | undefined =>
  (baseModel.name && Object.hasOwn(PACKAGED_MODELS, baseModel.name) ? PACKAGED_MODELS[baseModel.name] : undefined) ??
  Object.values(PACKAGED_MODELS).find((model) => model.sha256 === baseModel.sha256);

/** Where the base model's file comes from, as the README says it. */
function baseFileSource(baseModel: PackagedBase): string {
  if (baseModel.huggingFace) return `published on Hugging Face as \`${baseModel.huggingFace.replace(/^hf:/, '')}\``;
  const packaged = packagedModelOf(baseModel);
  if (packaged) return `inside the Python package \`${packaged.requirement}\` on PyPI, as \`${packaged.member}\``;
  return 'not published anywhere: it is the file the OwnVoice that trained this Voice runs, so you must supply it yourself';
}

/** Ollama's recipe: the base model, the adapter, and the prompt Convert sends, decoded as Convert does. */
export function voiceModelfile(manifest: VoicePackageManifest): string {
  const from = ollamaModelName(manifest.baseModel.huggingFace);
  const [before, after] = manifest.prompt.split('{text}') as [string, string];
  return [
    `# ${manifest.voice.name}: an OwnVoice Voice for Ollama.`,
    '#   ollama create my-voice -f Modelfile',
    '#   ollama run my-voice "A plain paragraph to rewrite in this Voice."',
    from
      ? `FROM ${from}`
      : `# The base model is the file ${manifest.baseModel.file} (SHA-256 ${manifest.baseModel.sha256}): put it beside this file.\nFROM ./${manifest.baseModel.file}`,
    `ADAPTER ./${VOICE_PACKAGE_FILES.gguf}`,
    `TEMPLATE """${before}{{ .Prompt }}${after}"""`,
    'PARAMETER temperature 0',
    `PARAMETER repeat_penalty ${REWRITE_REPEAT_PENALTY}`,
    // Convert stops where the Voice starts another prompt heading.
    'PARAMETER stop "### "',
    '',
  ].join('\n');
}

/** The README a person reads first. */
export function voiceReadme(manifest: VoicePackageManifest): string {
  const { voice, baseModel, training, evaluation } = manifest;
  const from = ollamaModelName(baseModel.huggingFace);
  const weights = transformersBase(baseModel);
  const drop = evaluation
    ? Math.round((1 - evaluation.heldOut.voicePerplexity / evaluation.heldOut.basePerplexity) * 100)
    : null;
  return `# ${voice.name}

Your Voice from OwnVoice: a LoRA adapter that writes in your style on top of a base language model.

- Base model: the file \`${baseModel.file}\`, SHA-256 \`${baseModel.sha256}\`, ${baseFileSource(baseModel)}.
  The adapter works only on this exact model.
- Trained on ${voice.characters === null ? 'your writing' : `${voice.characters.toLocaleString('en-US')} characters of your writing`} (rank ${training.rank}, alpha ${training.alpha}, preset "${training.preset}").${drop === null ? '' : `\n- On writing it never saw, it predicts your text with a perplexity ${drop}% below the base model's.`}

## What is inside

| File | For |
|---|---|
| \`${VOICE_PACKAGE_FILES.gguf}\` | llama.cpp, and Ollama through the Modelfile |
| \`peft/\` | Hugging Face transformers with PEFT |
| \`Modelfile\` | Ollama, with the prompt OwnVoice's Convert uses |
| \`manifest.json\` | what the adapter needs and how it measured; OwnVoice reads it when you import the package |

Packages like this one are tried with llama.cpp (\`${VOICE_PACKAGE_FILES.gguf}\` on the base model) and with
transformers and peft (\`peft/\`). The Modelfile follows Ollama's documented format but has not been
run in Ollama.

## Rewrite a text in your Voice

The Voice continues this prompt (\`{text}\` is your text):

\`\`\`
${manifest.prompt}
\`\`\`

Decode greedily (temperature 0) with a repeat penalty of ${REWRITE_REPEAT_PENALTY}, and stop at \`### \`.

- **Ollama:** ${from ? '' : `put \`${baseModel.file}\` beside the Modelfile, then `}\`ollama create my-voice -f Modelfile\`, then \`ollama run my-voice "your text"\`.
- **llama.cpp:** \`llama-cli -m ${baseModel.file} --lora ${VOICE_PACKAGE_FILES.gguf} --temp 0 --repeat-penalty ${REWRITE_REPEAT_PENALTY} -p "…"\` with the prompt above.
- **transformers** with PEFT: ${
    weights
      ? `\`AutoPeftModelForCausalLM.from_pretrained("peft")\` puts the Voice on the base model's weights from Hugging Face (\`${weights}\`, which \`${baseModel.file}\` was converted from; the tokenizer is \`AutoTokenizer.from_pretrained("${weights}")\`). On the file itself (with \`pip install gguf\`): \`PeftModel.from_pretrained(AutoModelForCausalLM.from_pretrained(".", gguf_file="${baseModel.file}"), "peft")\`.`
      : `load the base model yourself as \`model\` (\`${baseModel.file}\` has no published weights; transformers reads some GGUF files itself, with \`gguf_file=\`), then \`PeftModel.from_pretrained(model, "peft")\`.`
  }

## One model file instead

An app that runs a GGUF model file but cannot load an adapter beside it can take the Voice merged
into its base model: **Download Voice** → **One model file** on the Voice's page in OwnVoice (or
\`GET /api/loras/{id}/merged-model\` with a key). It is larger than the base model, since the
projections the adapter changed are kept as F16, and runs alone with the same prompt:
\`llama-cli -m your-voice.gguf --temp 0 --repeat-penalty ${REWRITE_REPEAT_PENALTY} -p "…"\`.

## Bring it into another OwnVoice

On the dashboard of any OwnVoice (the offline app too), choose **Import a Voice** and pick this .zip.
It must run the same base model: the import checks the SHA-256 above. The imported Voice takes a
storage slot; it is not trained again.
`;
}

/**
 * The package: the adapter folder's GGUF and PEFT export, with the manifest and the two texts. The
 * PEFT config names the manifest's base model, which is the Voice's own (decision 31), so that
 * transformers finds it; whatever name its training wrote is not kept.
 */
export async function buildVoicePackage(
  manifest: VoicePackageManifest,
  files: { ggufPath: string; peftDir: string },
): Promise<Buffer> {
  const zip = new JSZip();
  const text = { compression: 'DEFLATE' } as const;
  const stored = { compression: 'STORE' } as const;
  zip.file(VOICE_PACKAGE_FILES.manifest, `${JSON.stringify(manifest, null, 2)}\n`, text);
  zip.file(VOICE_PACKAGE_FILES.readme, voiceReadme(manifest), text);
  zip.file(VOICE_PACKAGE_FILES.modelfile, voiceModelfile(manifest), text);
  zip.file(VOICE_PACKAGE_FILES.gguf, await readFile(files.ggufPath), stored);
  zip.file(VOICE_PACKAGE_FILES.peftConfig, await packagedPeftConfig(manifest.baseModel, files.peftDir), text);
  zip.file(
    VOICE_PACKAGE_FILES.peftWeights,
    await readFile(path.join(files.peftDir, 'adapter_model.safetensors')),
    stored,
  );
  return zip.generateAsync({ type: 'nodebuffer', platform: 'UNIX' });
}

/** The LoRA settings training wrote into the adapter folder's PEFT config. */
async function trainedAdapter(peftDir: string): Promise<{ rank: number; alpha: number; targets: string[] }> {
  const trained = JSON.parse(await readFile(path.join(peftDir, 'adapter_config.json'), 'utf8')) as {
    r: number;
    lora_alpha: number;
    target_modules: string[];
  };
  return { rank: trained.r, alpha: trained.lora_alpha, targets: trained.target_modules };
}

/** The adapter folder's PEFT config, naming the base model by its weights' repository, else by its file. */
async function packagedPeftConfig(baseModel: PackagedBase, peftDir: string): Promise<string> {
  const adapter = await trainedAdapter(peftDir);
  return `${JSON.stringify(peftConfig(adapter, transformersBase(baseModel) ?? baseModel.file), null, 2)}\n`;
}

const { name: packageName, huggingFace: downloadUri } = voicePackageManifestSchema.shape.baseModel.shape;

/**
 * A base model as a manifest names it. Names the schema does not take (a file name with spaces)
 * are left out, and only an hf: URI says where to download the file: a packaged model's
 * repository (the 135M one's HuggingFaceTB/SmolLM2-135M-Instruct) holds weights, not this GGUF.
 */
export const manifestBase = (model: {
  name: string | null;
  file: string;
  sha256: string;
  bytes: number;
  huggingFace: string | null;
}): PackagedBase => ({
  ...(model.name && packageName.safeParse(model.name).success ? { name: model.name } : {}),
  file: model.file,
  sha256: model.sha256,
  bytes: model.bytes,
  huggingFace: model.huggingFace && downloadUri.safeParse(model.huggingFace).success ? model.huggingFace : null,
});

/**
 * The manifest of a trained Voice, as the server's download and the command line's `train` write
 * it: its training settings read from its adapter folder, and its evaluation's figures only (the
 * samples quote the owner's writing, and a package may be passed on).
 */
export async function voicePackageManifest(voice: {
  name: string;
  characters: number | null;
  trainedAt: Date;
  baseModel: PackagedBase;
  peftDir: string;
  preset: string;
  evaluation: VoiceEvaluation | null;
  exportedBy: VoicePackageManifest['exportedBy'];
}): Promise<VoicePackageManifest> {
  const adapter = await trainedAdapter(voice.peftDir);
  const { samples: _quotes, ...figures } = voice.evaluation ?? { samples: [] };
  return voicePackageManifestSchema.parse({
    format: VOICE_PACKAGE_FORMAT,
    version: VOICE_PACKAGE_VERSION,
    voice: { name: voice.name, characters: voice.characters, trainedAt: voice.trainedAt.toISOString() },
    baseModel: voice.baseModel,
    training: { preset: voice.preset, rank: adapter.rank, alpha: adapter.alpha, targetModules: adapter.targets },
    evaluation: voice.evaluation ? figures : null,
    prompt: rewritePrompt('{text}'),
    exportedBy: voice.exportedBy,
  });
}
