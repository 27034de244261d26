// What this server serves: the base model under its served name, and the LoRA adapters loaded at
// run time under their lora_name, with vLLM's rules for loading and unloading them (one load or
// unload of a name at a time; a name loads once unless in place; an unknown name cannot be
// unloaded). An adapter is a Voice of the engine: loading wakes it, unloading puts it to sleep,
// which stops the generations on it with a VoiceNotAwakeError.
//
// One rule beyond vLLM's: loading in place replaces a name's adapter only with a file from the
// folder it was loaded from. The API server names each adapter after its Voice and keeps each
// Voice's adapters in a folder of its own, so a name can be reloaded with its Voice's new
// weights but never made to serve another Voice's file.
import { statSync } from 'node:fs';
import path from 'node:path';
import { KeyedQueue, type VoiceEngine } from '@ownvoice/engine';
import { errors } from './openai-errors.js';

export interface ServedModel {
  /** The name requests give as `model`. */
  id: string;
  /** The file it was loaded from: the base model's path, or lora_path as the loader gave it. */
  root: string;
  /** The base model's id for an adapter; null for the base model. */
  parent: string | null;
  /** Unix seconds when it was loaded. */
  created: number;
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

const isFile = (file: string) => {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
};

export class ServedModels {
  readonly base: ServedModel;
  private readonly adapters = new Map<string, ServedModel>();
  /** The resolved folder of each adapter's file: where a load in place may take its new file from. */
  private readonly folders = new Map<string, string>();
  private readonly transitions = new KeyedQueue();

  constructor(
    private readonly engine: VoiceEngine,
    base: { name: string; path: string },
  ) {
    this.base = { id: base.name, root: base.path, parent: null, created: nowSeconds() };
  }

  list(): ServedModel[] {
    return [this.base, ...this.adapters.values()];
  }

  /**
   * The engine's voiceId for a request's `model`: undefined for the base model (also when no model
   * is named, as vLLM takes it), the adapter's name for a loaded adapter; a 404 otherwise.
   */
  voiceFor(model: string | undefined): { voiceId: string | undefined; model: string } {
    if (model === undefined || model === this.base.id) return { voiceId: undefined, model: this.base.id };
    if (this.adapters.has(model)) return { voiceId: model, model };
    throw errors.modelNotFound(model);
  }

  load(name: string, loraPath: string, inPlace: boolean): Promise<void> {
    return this.transitions.run(name, async () => {
      if (!name || !loraPath) throw errors.invalidUserInput("Both 'lora_name' and 'lora_path' must be provided.");
      if (name === this.base.id) {
        throw errors.invalidUserInput(`The lora adapter name '${name}' is the base model's name.`);
      }
      if (!inPlace && this.adapters.has(name)) {
        throw errors.invalidUserInput(
          `The lora adapter '${name}' has already been loaded. If you want to load the adapter in place, set 'load_inplace' to True.`,
        );
      }
      const file = path.resolve(loraPath);
      const folder = this.folders.get(name);
      if (folder !== undefined && path.dirname(file) !== folder) {
        throw errors.invalidUserInput(
          `The lora adapter '${name}' can be loaded in place only from the folder it was first loaded from.`,
        );
      }
      if (!isFile(file)) throw errors.loraFileMissing(name, loraPath);
      try {
        // A file that is not a fitting GGUF adapter throws GgufError: a 400 with the reason.
        await this.engine.wake(name, file);
      } catch (error) {
        // A failed load in place has already unloaded the adapter it was to replace.
        if (!this.engine.isAwake(name)) this.forget(name);
        throw error;
      }
      this.adapters.set(name, { id: name, root: loraPath, parent: this.base.id, created: nowSeconds() });
      this.folders.set(name, path.dirname(file));
    });
  }

  unload(name: string): Promise<void> {
    return this.transitions.run(name, async () => {
      if (!name) throw errors.invalidUserInput("'lora_name' needs to be provided to unload a LoRA adapter.");
      if (!this.adapters.has(name)) throw errors.loraNotLoaded(name);
      // Gone from the list first: a request naming it from now on is a 404, not a wait.
      this.forget(name);
      await this.engine.sleep(name, `The lora adapter '${name}' was unloaded.`);
    });
  }

  private forget(name: string): void {
    this.adapters.delete(name);
    this.folders.delete(name);
  }
}
