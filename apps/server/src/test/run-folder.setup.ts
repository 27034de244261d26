// Vitest global setup for the server's projects: a private temporary folder for the whole test run,
// for what a test process makes once and keeps from one file to the next (quick-voice.ts's
// adapters). Removed here when the run ends: vitest stops its workers without their exit handlers.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** This run's private folder; each test process makes its own folders inside it. */
    runFolder: string;
  }
}

export default function setup(project: TestProject): () => void {
  const folder = mkdtempSync(path.join(tmpdir(), 'ownvoice-test-run-'));
  project.provide('runFolder', folder);
  return () => rmSync(folder, { recursive: true, force: true });
}
