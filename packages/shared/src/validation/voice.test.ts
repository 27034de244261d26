import { describe, expect, it } from 'vitest';
import {
  filterVoiceNameInput,
  hasAcceptedExtension,
  MIN_TRAINING_CHARS,
  VOICE_MESSAGES,
  voiceNameSchema,
} from './voice.js';

describe('Create Voice rules', () => {
  it('filters the name as typed: letters, digits, spaces, _ and -, at most 100', () => {
    expect(filterVoiceNameInput('My Voice! #2_a-b')).toBe('My Voice 2_a-b');
    expect(filterVoiceNameInput('x'.repeat(150))).toHaveLength(100);
  });

  it('requires a non-blank name', () => {
    expect(voiceNameSchema.safeParse('   ').error?.issues[0]?.message).toBe(VOICE_MESSAGES.nameRequired);
    expect(voiceNameSchema.safeParse('!!!').error?.issues[0]?.message).toBe(VOICE_MESSAGES.nameRequired);
    expect(voiceNameSchema.parse('  Essays 2024\u0000 ')).toBe('Essays 2024');
  });

  it('words the Create Voice messages with the numbers and files filled in', () => {
    expect(VOICE_MESSAGES.tooFewChars(12345)).toBe(
      'Training requires at least 20,000 characters. You currently have 12,345 characters.',
    );
    expect(VOICE_MESSAGES.invalidTypes(['a.exe', 'b.png'])).toBe(
      'Invalid file types: a.exe, b.png. Please use: .txt, .md, .pdf, .docx, .epub, .html, .jsonl',
    );
    expect(VOICE_MESSAGES.tooLarge(['big.pdf'])).toBe('Files too large: big.pdf. Maximum size per file: 10 MB');
    expect(MIN_TRAINING_CHARS).toBe(20_000);
  });

  it('accepts the upload formats whatever the case of the extension', () => {
    expect(hasAcceptedExtension('Essay.DOCX')).toBe(true);
    expect(hasAcceptedExtension('page.htm')).toBe(true);
    expect(hasAcceptedExtension('photo.png')).toBe(false);
  });
});
