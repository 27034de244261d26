// The Python copy of the Voice presets (for the GPU bench) says what VOICE_PRESETS says.
import { describe, expect, it } from 'vitest';
import { voicePresetsFileIsCurrent } from './voice-presets-file.js';

describe('voice_presets.json', () => {
  it('matches VOICE_PRESETS (else run: npm run presets -w packages/engine)', () => {
    expect(voicePresetsFileIsCurrent()).toBe(true);
  });
});
