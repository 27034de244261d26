// Before listening on a Unix socket: its folder must be one only this OS user may enter, since
// that folder is what keeps other local users from connecting (a socket's own mode is not
// honoured everywhere). A socket left behind by a process that died is replaced; any other file
// in its place is refused rather than deleted.
import { lstatSync, statSync, unlinkSync } from 'node:fs';
import path from 'node:path';

/** Throws an Error saying what to fix when `socketPath` is not a safe place to listen. */
export function prepareSocketPath(socketPath: string): void {
  const dir = path.dirname(socketPath);
  let folder: ReturnType<typeof statSync>;
  try {
    folder = statSync(dir);
  } catch {
    throw new Error(`The socket's folder ${dir} does not exist: create it with mkdir -m 700 ${dir}.`);
  }
  if (!folder.isDirectory()) throw new Error(`${dir} is not a folder: put the socket in a folder.`);
  if (process.getuid && folder.uid !== process.getuid()) {
    throw new Error(`The socket's folder ${dir} belongs to another user: use a folder of this user's.`);
  }
  if ((folder.mode & 0o077) !== 0) {
    throw new Error(
      `The socket's folder ${dir} is open to other users (mode ${(folder.mode & 0o777).toString(8)}): ` +
        `make it private with chmod 700 ${dir}.`,
    );
  }
  let existing: ReturnType<typeof lstatSync>;
  try {
    existing = lstatSync(socketPath);
  } catch {
    return;
  }
  if (!existing.isSocket())
    throw new Error(`${socketPath} exists and is not a socket: remove it or pick another path.`);
  unlinkSync(socketPath);
}
