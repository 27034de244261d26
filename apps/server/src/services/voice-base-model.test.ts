// The base model a Voice package names: a Voice whose base was never recorded takes the server's,
// and only an hf: URI goes into the manifest as where to download the file.
import { voicePackageManifestSchema } from '@ownvoice/shared';
import { describe, expect, it } from 'vitest';
import { packagedBase } from './voice-base-model.js';

const unrecorded = {
  baseModelState: 'unknown' as const,
  baseModelName: null,
  baseModelFile: null,
  baseModelSha256: null,
  baseModelBytes: null,
};
const server = { name: 'smollm2-135m', file: 'SmolLM2-135M-Instruct.Q4_1.gguf', sha256: 'a'.repeat(64), bytes: 100 };

describe('packagedBase for a Voice whose base was never recorded', () => {
  it("names the packaged model without its repository, which holds weights, not the server's file", () => {
    const base = packagedBase(unrecorded, { ...server, huggingFace: 'HuggingFaceTB/SmolLM2-135M-Instruct' });
    expect(base).toMatchObject({ name: 'smollm2-135m', file: server.file, huggingFace: null });
    expect(voicePackageManifestSchema.shape.baseModel.safeParse(base).success).toBe(true);
  });

  it('keeps the hf: URI a downloaded model came from', () => {
    const spec = 'hf:bartowski/SmolLM2-360M-Instruct-GGUF:Q8_0';
    expect(packagedBase(unrecorded, { ...server, name: spec, huggingFace: spec }).huggingFace).toBe(spec);
  });
});
