#!/usr/bin/env node
// The file-extraction process (src/text/isolated.ts starts it), run from its TypeScript source.
import { register } from 'tsx/esm/api';

register();
await import('../src/text/extract-child.ts');
