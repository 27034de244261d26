#!/usr/bin/env node
// The Voice package process (src/voice/voice-package-import.ts starts it), run from its TypeScript source.
import { register } from 'tsx/esm/api';

register();
await import('../src/voice/voice-package-child.ts');
