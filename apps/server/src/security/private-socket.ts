// Where a Unix socket only this OS user can reach goes: a folder only this user may enter (0700).
// The services this server runs beside itself (the embedded database's wire protocol, the
// embedded inference process) are reached through such sockets, never a TCP port that any local
// process could connect to: entering the folder is the check, made by the kernel.
import { chmodSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** The longest socket path every platform takes (macOS: 104 bytes with the final NUL); Node cuts longer ones silently. */
export const MAX_SOCKET_PATH_BYTES = 103;

export interface PrivateSocketPlace {
  /** The owner-only folder. */
  dir: string;
  /** The socket's path inside it. */
  socketPath: string;
  /** Removes the socket (and the folder, when it was a temporary one). */
  remove(): void;
}

/**
 * A place for the socket `name`: in `preferredDir` (made owner-only, a stale socket of that name
 * replaced), or in a fresh private temporary folder when none is given or its path is too long
 * for a socket. The caller must own `preferredDir`.
 */
export function privateSocketPlace(preferredDir: string | undefined, name: string): PrivateSocketPlace {
  const fits = (dir: string) => Buffer.byteLength(path.join(dir, name)) <= MAX_SOCKET_PATH_BYTES;
  if (preferredDir && fits(path.resolve(preferredDir))) {
    const dir = path.resolve(preferredDir);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    // mkdir's mode applies only to a folder it makes: one that was there is made private too.
    chmodSync(dir, 0o700);
    const socketPath = path.join(dir, name);
    rmSync(socketPath, { force: true });
    return { dir, socketPath, remove: () => rmSync(socketPath, { force: true }) };
  }
  // mkdtemp makes the folder owner-only (0700) under an unguessable name.
  const dir = mkdtempSync(path.join(tmpdir(), 'ownvoice-'));
  if (!fits(dir)) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`The temporary folder ${tmpdir()} has too long a path for a socket: set TMPDIR.`);
  }
  return { dir, socketPath: path.join(dir, name), remove: () => rmSync(dir, { recursive: true, force: true }) };
}
