// The Voice engine: model files, training, inference, text handling and evaluation.
export * from './adapters/export.js';
export { MergeError } from './adapters/merge.js';
export * from './adapters/merged-model.js';
export * from './base-model/base-model.js';
export { ALL_MINILM_L6_V2, embeddingModelFiles, fetchEmbeddingModel } from './base-model/embedding-model.js';
export * from './chunking/index.js';
export * from './corpus/paths.js';
export * from './eval/index.js';
export * from './gguf/index.js';
export type { ChatMessage, GenerateOptions, GenerationEnd, TextGenerator } from './runtime/text-generator.js';
export * from './runtime/voice-engine.js';
export { seededRandom } from './seeded-random.js';
export * from './text/index.js';
export * from './trainer/python.js';
export * from './trainer/semantic-similarity.js';
export * from './trainer/train.js';
export * from './voice/train-voice.js';
export * from './voice/voice-package.js';
export * from './voice/voice-package-import.js';
export { VoicePackageError } from './voice/voice-package-unpack.js';

export const ENGINE_VERSION = '0.1.0';
export * from './voice/deltas.js';
export * from './voice/prompts.js';
export * from './voice/rewrite.js';
export * from './voice/rewrite-checks.js';
