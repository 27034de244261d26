// What the routes serve from: the engine, the models it serves, and the count of its generations.
import type { VoiceEngine } from '@ownvoice/engine';
import type { GenerationMetrics } from './metrics.js';
import type { ServedModels } from './models.js';

export interface InferenceState {
  engine: VoiceEngine;
  models: ServedModels;
  metrics: GenerationMetrics;
}
