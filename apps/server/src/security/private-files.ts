// What OwnVoice writes holds people's accounts and writing: the database (e-mail addresses and
// password hashes in its write-ahead log), uploaded text, adapters, the secret key. Only the OS
// user the service runs as may read any of it. Each entry point sets a umask of 077 before it
// writes anything, as PostgreSQL does at start, so every file it (and every process it starts:
// the inference server, the trainer, the upload readers) creates is 0600 and every folder 0700,
// whatever umask it was started with. A folder someone else made open to others is not changed
// behind their back: the service says at start how to close it.
//
// One writer does not honour the umask: PGlite's file system layer sets the mode of each file it
// creates explicitly (0666 for its initial database, 0644 for the cache files Postgres writes at
// start), so its folder is made private once it has started (makePrivate).
import { chmodSync, lstatSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

/** Removes every permission of group and others from what this process creates. */
export function keepFilesPrivate(): void {
  process.umask(0o077);
}

/** Removes every permission of group and others from `folder` and everything in it (links left alone). */
export function makePrivate(folder: string): void {
  const stat = lstatSync(folder);
  if (stat.isSymbolicLink()) return;
  if ((stat.mode & 0o077) !== 0) chmodSync(folder, stat.mode & 0o7700);
  if (stat.isDirectory()) for (const entry of readdirSync(folder)) makePrivate(path.join(folder, entry));
}

/**
 * A warning for each of `folders` that other users of this machine may enter or read, naming the
 * command that closes it; none for a folder that is private or not there yet.
 */
export function openFolderWarnings(folders: { path: string; what: string }[]): string[] {
  const warnings: string[] = [];
  const seen = new Set<string>();
  for (const folder of folders) {
    if (seen.has(folder.path)) continue;
    seen.add(folder.path);
    let mode: number;
    try {
      mode = statSync(folder.path).mode;
    } catch {
      continue;
    }
    if ((mode & 0o077) === 0) continue;
    warnings.push(
      `The ${folder.what} ${folder.path} is open to other users of this machine (mode ${(mode & 0o777).toString(8)}), ` +
        `who may read accounts and writing kept there. Make it private: chmod -R go-rwx '${folder.path}'`,
    );
  }
  return warnings;
}
