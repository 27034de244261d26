// The Voice folder layout: an upload stored for training reads back as the same writing, and a
// manifest that points outside the uploads folder is refused rather than followed.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LocalArtifactStorage } from './artifact-storage.js';
import { readUploads, storeUploads, UPLOAD_MANIFEST, uploadsKey } from './voice-files.js';

const root = mkdtempSync(path.join(tmpdir(), 'ownvoice-voice-files-'));
const storage = new LocalArtifactStorage(path.join(root, 'artifacts'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function uploadFolder(name: string, files: Record<string, string>): string {
  const dir = path.join(root, name);
  mkdirSync(dir, { recursive: true });
  for (const [file, text] of Object.entries(files)) writeFileSync(path.join(dir, file), text);
  return dir;
}

describe('Voice files', () => {
  it('reads back the stored files under the names the person gave, and the pasted text', async () => {
    const dir = uploadFolder('upload-a', { '000.md': '# Notes', '001.txt': 'A letter' });
    await storeUploads(
      storage,
      'voice-a',
      dir,
      [
        { name: 'notes.md', path: path.join(dir, '000.md') },
        { name: 'letter.txt', path: path.join(dir, '001.txt') },
      ],
      'Pasted words',
    );
    const { files, pastedText } = await readUploads(storage, 'voice-a');
    expect(files.map((f) => [f.name, f.data.toString()])).toEqual([
      ['notes.md', '# Notes'],
      ['letter.txt', 'A letter'],
    ]);
    expect(pastedText).toBe('Pasted words');
  });

  it('keeps no pasted text when none was sent', async () => {
    const dir = uploadFolder('upload-b', { '000.md': 'Only a file' });
    await storeUploads(storage, 'voice-b', dir, [{ name: 'only.md', path: path.join(dir, '000.md') }], '  ');
    expect((await readUploads(storage, 'voice-b')).pastedText).toBeUndefined();
  });

  it('refuses a manifest naming a file outside the uploads folder', async () => {
    const dir = uploadFolder('upload-c', { '000.md': 'Words' });
    await storeUploads(storage, 'voice-c', dir, [{ name: 'w.md', path: path.join(dir, '000.md') }], '');
    writeFileSync(
      path.join(storage.localPath(uploadsKey('voice-c')), UPLOAD_MANIFEST),
      JSON.stringify([{ file: '../../secret', name: 'w.md' }]),
    );
    await expect(readUploads(storage, 'voice-c')).rejects.toThrow('could not be read back');
  });
});
