// A Voice as the server sends it, for unit tests of any feature.
import type { Voice } from '@ownvoice/shared';

export const testVoice = (overrides: Partial<Voice> = {}): Voice => ({
  _id: '0123456789abcdef01234567',
  name: 'Blog voice',
  status: 'ready',
  progress: 100,
  statusMessage: null,
  isPublic: false,
  createdAt: '2026-03-04T10:00:00.000Z',
  pipeline_id: 'run-1',
  stage: null,
  etaSeconds: null,
  characters: 42_000,
  evaluation: null,
  ownerName: 'writer',
  isOwner: true,
  ...overrides,
});
