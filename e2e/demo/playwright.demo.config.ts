// The demo recording (record.sh): the e2e setup (built service, empty data folder, house model,
// Debian's chromium) running the one recording flow, with room for a whole training run.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from '@playwright/test';
import base from '../playwright.config';

const demoDir = path.dirname(fileURLToPath(import.meta.url));

export default defineConfig({
  ...base,
  testDir: demoDir,
  testMatch: 'record.demo.ts',
  outputDir: path.join(process.env.DEMO_WORK_DIR ?? path.join(demoDir, '..', 'artifacts'), 'demo-results'),
  timeout: 30 * 60_000,
});
