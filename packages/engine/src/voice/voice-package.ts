// A Voice as one .zip a person takes home (the manifest's schema is shared's voice-package.ts):
//
//   manifest.json                   base model (file, SHA-256), training settings, evaluation figures
//   voice.gguf                      the LoRA adapter for llama.cpp and the apps built on it (Ollama)
//   peft/adapter_config.json        the same adapter for transformers and vLLM (export.ts)
//   peft/adapter_model.safetensors
//   Modelfile                       Ollama: the base model, the adapter, Convert's prompt
//   README.md                       how to use each, and how to import it into another OwnVoice
//
// Adapters are stored, not deflated: float weights barely compress, and a stored entry reads back
// without inflating. Reading one back is voice-package-import.ts's, in a child process.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { VOICE_PACKAGE_FILES, type VoicePackageManifest } from '@ownvoice/shared';
import JSZip from 'jszip';
import { REWRITE_REPEAT_PENALTY } from './rewrite.js';

/** `hf:owner/repo:quant` as Ollama names it; null for a file that only exists on one machine. */
export const ollamaModelName = (huggingFace: string | null): string | null =>
  huggingFace ? `hf.co/${huggingFace.replace(/^hf:/, '')}` : null;

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
  const drop = evaluation
    ? Math.round((1 - evaluation.heldOut.voicePerplexity / evaluation.heldOut.basePerplexity) * 100)
    : null;
  return `# ${voice.name}

Your Voice from OwnVoice: a LoRA adapter that writes in your style on top of a base language model.

- Base model: \`${baseModel.file}\`${baseModel.huggingFace ? ` (Hugging Face: \`${baseModel.huggingFace.replace(/^hf:/, '')}\`)` : ''}, SHA-256 \`${baseModel.sha256}\`.
  The adapter works only on this exact model.
- Trained on ${voice.characters === null ? 'your writing' : `${voice.characters.toLocaleString('en-US')} characters of your writing`} (rank ${training.rank}, alpha ${training.alpha}, preset "${training.preset}").${drop === null ? '' : `\n- On writing it never saw, it predicts your text with a perplexity ${drop}% below the base model's.`}

## What is inside

| File | For |
|---|---|
| \`${VOICE_PACKAGE_FILES.gguf}\` | llama.cpp and the apps built on it (Ollama, LM Studio and others that take a LoRA adapter) |
| \`peft/\` | Hugging Face transformers with PEFT, and vLLM |
| \`Modelfile\` | Ollama, with the prompt OwnVoice's Convert uses |
| \`manifest.json\` | what the adapter needs and how it measured; OwnVoice reads it when you import the package |

## Rewrite a text in your Voice

The Voice continues this prompt (\`{text}\` is your text):

\`\`\`
${manifest.prompt}
\`\`\`

Decode greedily (temperature 0) with a repeat penalty of ${REWRITE_REPEAT_PENALTY}, and stop at \`### \`.

- **Ollama:** ${from ? '' : `put \`${baseModel.file}\` beside the Modelfile, then `}\`ollama create my-voice -f Modelfile\`, then \`ollama run my-voice "your text"\`.
- **llama.cpp:** \`llama-cli -m ${baseModel.file} --lora ${VOICE_PACKAGE_FILES.gguf} --temp 0 --repeat-penalty ${REWRITE_REPEAT_PENALTY} -p "…"\` with the prompt above.
- **transformers:** \`PeftModel.from_pretrained(AutoModelForCausalLM.from_pretrained(base), "peft")\`, where \`base\` is the same model in Hugging Face's format.
- **vLLM:** \`vllm serve <base> --enable-lora --lora-modules my-voice=./peft\`.

## Bring it into another OwnVoice

On the dashboard of any OwnVoice (the offline app too), choose **Import a Voice** and pick this .zip.
It must run the same base model: the import checks the SHA-256 above. The imported Voice takes a
storage slot; it is not trained again.
`;
}

/** The package: the adapter folder's GGUF and PEFT export, with the manifest and the two texts. */
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
  zip.file(VOICE_PACKAGE_FILES.peftConfig, await readFile(path.join(files.peftDir, 'adapter_config.json')), text);
  zip.file(
    VOICE_PACKAGE_FILES.peftWeights,
    await readFile(path.join(files.peftDir, 'adapter_model.safetensors')),
    stored,
  );
  return zip.generateAsync({ type: 'nodebuffer', platform: 'UNIX' });
}
