// Where Voice files live (adapters, PEFT exports, evaluations). A local folder by default,
// shared by workers on other machines through a mounted path; object storage can implement the
// same interface later.
import { cp, mkdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';

export interface ArtifactStorage {
  /** A local path to read or write the artifact at `key` (a folder name, or folder/file). */
  localPath(key: string): string;
  exists(key: string): Promise<boolean>;
  copy(fromKey: string, toKey: string): Promise<void>;
  /** Moves a local folder (e.g. a finished upload) to `key`; the folder is gone afterwards. */
  importFolder(localDir: string, key: string): Promise<void>;
  remove(key: string): Promise<void>;
}

const SAFE_KEY = /^[A-Za-z0-9][A-Za-z0-9._/-]*$/;

export class LocalArtifactStorage implements ArtifactStorage {
  constructor(private readonly root: string) {}

  localPath(key: string): string {
    // Keys are built by the service from ids; refuse anything that could leave the root.
    if (!SAFE_KEY.test(key) || key.split('/').includes('..')) throw new Error(`invalid storage key ${key}`);
    return path.join(this.root, key);
  }

  async exists(key: string): Promise<boolean> {
    try {
      await stat(this.localPath(key));
      return true;
    } catch {
      return false;
    }
  }

  async copy(fromKey: string, toKey: string): Promise<void> {
    await mkdir(path.dirname(this.localPath(toKey)), { recursive: true });
    await cp(this.localPath(fromKey), this.localPath(toKey), { recursive: true, errorOnExist: true, force: false });
  }

  async importFolder(localDir: string, key: string): Promise<void> {
    const target = this.localPath(key);
    await mkdir(path.dirname(target), { recursive: true });
    try {
      await rename(localDir, target);
    } catch (error) {
      // Another file system (a mounted shared folder): copy, then remove the original.
      if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
      await cp(localDir, target, { recursive: true, errorOnExist: true, force: false });
      await rm(localDir, { recursive: true, force: true });
    }
  }

  async remove(key: string): Promise<void> {
    // Retried: a trainer still writing into the folder (its Voice deleted mid-training) makes a
    // single pass fail with ENOTEMPTY.
    await rm(this.localPath(key), { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
  }
}
