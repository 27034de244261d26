// The Voice package read back as written; a file that is not one, one missing a part, and one
// whose entries claim more than a package may hold are refused before anything is inflated.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { MAX_VOICE_PACKAGE_BYTES, type VoicePackageManifest } from '@ownvoice/shared';
import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../test/fixtures.js';
import { rewritePrompt } from './prompts.js';
import { buildVoicePackage, readVoicePackage, VoicePackageError, voiceModelfile } from './voice-package.js';

/** A central directory file header's signature (PKWARE's APPNOTE, section 4.3.12). */
const CENTRAL_ENTRY = Buffer.from([0x50, 0x4b, 0x01, 0x02]);

const manifest: VoicePackageManifest = {
  format: 'ownvoice-voice',
  version: 1,
  voice: { name: 'Essays', characters: 41_000, trainedAt: '2026-11-27T10:00:00.000Z' },
  baseModel: {
    file: 'SmolLM2-360M-Instruct-Q8_0.gguf',
    sha256: 'b'.repeat(64),
    bytes: 386_404_992,
    huggingFace: 'hf:bartowski/SmolLM2-360M-Instruct-GGUF:Q8_0',
  },
  training: { preset: 'standard', rank: 16, alpha: 32, targetModules: ['q_proj', 'v_proj'] },
  evaluation: null,
  prompt: rewritePrompt('{text}'),
  exportedBy: { app: 'OwnVoice', version: '0.1.0' },
};

function adapterFolder(): { ggufPath: string; peftDir: string } {
  const dir = tempDir();
  const peftDir = path.join(dir, 'peft');
  mkdirSync(peftDir);
  writeFileSync(path.join(dir, 'voice.gguf'), Buffer.from([1, 2, 3, 4]));
  writeFileSync(path.join(peftDir, 'adapter_config.json'), '{"r":16}');
  writeFileSync(path.join(peftDir, 'adapter_model.safetensors'), Buffer.from([5, 6, 7]));
  return { ggufPath: path.join(dir, 'voice.gguf'), peftDir };
}

describe('the Voice package', () => {
  it('reads back what was written', async () => {
    const read = await readVoicePackage(await buildVoicePackage(manifest, adapterFolder()));
    expect(read.manifest).toEqual(manifest);
    expect([...read.gguf]).toEqual([1, 2, 3, 4]);
    expect(read.peftConfig.toString()).toBe('{"r":16}');
    expect([...read.peftWeights]).toEqual([5, 6, 7]);
  });

  it('names the published base model in the Modelfile, with Convert’s prompt around the text', () => {
    const modelfile = voiceModelfile(manifest);
    expect(modelfile).toContain('FROM hf.co/bartowski/SmolLM2-360M-Instruct-GGUF:Q8_0\n');
    expect(modelfile).toContain('TEMPLATE """### Plain text:\n{{ .Prompt }}\n\n### In my voice:\n"""');
  });

  it('refuses what is not a package, a package missing a part, and entries too large to hold', async () => {
    const refusal = (data: Buffer) => readVoicePackage(data).catch((e: unknown) => e);
    expect(await refusal(Buffer.from('not a zip'))).toBeInstanceOf(VoicePackageError);

    const whole = await buildVoicePackage(manifest, adapterFolder());
    const missing = await JSZip.loadAsync(whole);
    missing.remove('peft/adapter_model.safetensors');
    const partial = await refusal(await missing.generateAsync({ type: 'nodebuffer' }));
    expect((partial as Error).message).toContain('peft/adapter_model.safetensors is missing');

    const newer = await JSZip.loadAsync(whole);
    newer.file('manifest.json', JSON.stringify({ ...manifest, version: 2 }));
    expect(((await refusal(await newer.generateAsync({ type: 'nodebuffer' }))) as Error).message).toContain(
      'newer version',
    );

    // A name the create form would not take (nothing but spaces) is not taken from a package either.
    const blank = await JSZip.loadAsync(whole);
    blank.file('manifest.json', JSON.stringify({ ...manifest, voice: { ...manifest.voice, name: '   ' } }));
    expect(await refusal(await blank.generateAsync({ type: 'nodebuffer' }))).toBeInstanceOf(VoicePackageError);

    // A byte changed in a stored adapter: its CRC-32 no longer matches.
    const flipped = Buffer.from(whole);
    flipped[flipped.indexOf(Buffer.from([1, 2, 3, 4])) + 2] = 9;
    expect(((await refusal(flipped)) as Error).message).toContain('voice.gguf is damaged');

    // A zip bomb: the archive's directory claims an entry far past the limit; refused unread.
    const bomb = Buffer.from(whole);
    for (let at = bomb.indexOf(CENTRAL_ENTRY); at >= 0; at = bomb.indexOf(CENTRAL_ENTRY, at + 4)) {
      const nameLength = bomb.readUInt16LE(at + 28);
      if (bomb.toString('utf8', at + 46, at + 46 + nameLength) === 'manifest.json') {
        bomb.writeUInt32LE(MAX_VOICE_PACKAGE_BYTES + 1, at + 24); // uncompressed size
      }
    }
    expect(((await refusal(bomb)) as Error).message).toContain(`at most ${MAX_VOICE_PACKAGE_BYTES / 1024 / 1024} MB`);
  });
});
