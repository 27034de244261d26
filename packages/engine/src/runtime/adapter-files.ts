// The LoRA adapter files loaded in llama.cpp, counted by the Voices that use them. llama.cpp
// loads an adapter once per file (node-llama-cpp caches it by resolved path) and every context
// made with that file shares the one native adapter. Freeing it while a context still uses it
// crashes the process, so an adapter is freed only when the last Voice using its file lets go.
// The same file woken under two names is one adapter with two holders.

import path from 'node:path';
import type { LlamaModel } from 'node-llama-cpp';
import { GgufError } from '../gguf/errors.js';
import { KeyedQueue } from './pool.js';

interface Held {
  /** Voices holding the file, counting one still making its context. */
  holders: number;
  /** The file's size and mtime when it was loaded: what every holder is served. */
  fingerprint: string;
}

export class AdapterFiles {
  private readonly held = new Map<string, Held>();
  /** Takes and lets go of each file one at a time, so a count never races its free. */
  private readonly files = new KeyedQueue();

  constructor(private readonly model: LlamaModel) {}

  /** The one name llama.cpp caches a file under. */
  static key(adapterPath: string): string {
    return path.resolve(process.cwd(), adapterPath);
  }

  /**
   * Counts one more Voice on `file` (a key()). A file rewritten since another Voice loaded it
   * cannot be served to both: llama.cpp has the old contents, so this refuses rather than mix.
   */
  acquire(file: string, fingerprint: string): Promise<void> {
    return this.files.run(file, async () => {
      const held = this.held.get(file);
      if (held && held.fingerprint !== fingerprint) {
        throw new GgufError(
          `${file} changed since another adapter name loaded it; unload that name first to load the new contents.`,
        );
      }
      // Nobody holds it: whatever llama.cpp kept from an earlier load may be stale.
      if (!held) await this.free(file);
      this.held.set(file, { holders: (held?.holders ?? 0) + 1, fingerprint });
    });
  }

  /** One Voice fewer on `file`; the last one out frees the adapter. */
  release(file: string): Promise<void> {
    return this.files.run(file, async () => {
      const held = this.held.get(file);
      if (!held) return;
      if (held.holders > 1) {
        held.holders--;
        return;
      }
      this.held.delete(file);
      await this.free(file);
    });
  }

  /** How many Voices hold `file` (tests). */
  holders(file: string): number {
    return this.held.get(file)?.holders ?? 0;
  }

  private async free(file: string): Promise<void> {
    // node-llama-cpp exposes no public call for this; its model keeps loaded adapters in
    // `_loraAdapters` (resolved path -> native handle with dispose()). Kept to this one function.
    const cache = (this.model as unknown as { _loraAdapters?: Map<string, { dispose(): Promise<void> }> })
      ._loraAdapters;
    const adapter = cache?.get(file);
    if (!cache || !adapter) return;
    cache.delete(file);
    await adapter.dispose();
  }
}
