#!/usr/bin/env node
// The merged-model process (src/adapters/merged-model.ts starts it), run from its TypeScript source.
import { register } from 'tsx/esm/api';

register();
await import('../src/adapters/merge-child.ts');
