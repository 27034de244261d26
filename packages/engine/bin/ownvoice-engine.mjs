#!/usr/bin/env node
// Runs the engine's command line from its TypeScript source.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli/main.ts');
