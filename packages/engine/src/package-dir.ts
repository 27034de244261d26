// The engine's own folder, found through Node's resolver rather than this file's URL, so the
// paths below stay right when the engine is bundled into another program (the server).
import { createRequire } from 'node:module';
import path from 'node:path';

export const ENGINE_DIR = path.dirname(createRequire(import.meta.url).resolve('@ownvoice/engine/package.json'));
