// End-to-end tests in Debian's chromium against the built service (web app and API on one port),
// started fresh on an empty data folder for every run.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, devices } from '@playwright/test';
import { E2E_ADMIN, E2E_CONSOLE_ADMIN, E2E_SCREENS_ADMIN } from './support';

const e2eDir = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(e2eDir, '..');
const artifactsDir = path.join(e2eDir, 'artifacts');
// Two runs at once (scripts/test.sh runs the real-model spec beside the rest) keep their own results.
const outputDir = process.env.E2E_OUTPUT_DIR ?? path.join(artifactsDir, 'test-results');

const port = Number(process.env.E2E_PORT ?? 8080);
const baseURL = process.env.E2E_BASE_URL ?? `http://127.0.0.1:${port}`;
const smtpPort = port + 25;
const mailPort = port + 26;
// The config is evaluated by the runner and again by each worker; the runner fixes the folder.
process.env.E2E_DATA_DIR ??= path.join(artifactsDir, `data-${Date.now()}`);
const dataDir = process.env.E2E_DATA_DIR;

export default defineConfig({
  testDir: e2eDir,
  testMatch: '**/*.spec.ts',
  outputDir,
  fullyParallel: false,
  workers: 1,
  forbidOnly: !!process.env.CI,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: 'list',
  use: {
    baseURL,
    // A trace of every test, kept where one fails: a fifth of the browser tests' CPU (small-screens
    // took 94 s of CPU with it, 76 s without). CI keeps no files from its clone, so there it is
    // off; rerun a failing test here to get its trace.
    trace: process.env.CI ? 'off' : 'retain-on-failure',
    screenshot: 'only-on-failure',
    // As a person who asks for less motion: toasts and dialogs settle at once, so axe never
    // measures one halfway through fading (a faded toast once failed colour contrast).
    reducedMotion: 'reduce',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'] } }],
  // The mail sink and the service every spec shares. The real model's spec starts a server of its
  // own (second-server.ts) and reads no mail: run alone (scripts/test.sh) it sets
  // E2E_SKIP_SHARED_SERVERS, since starting these took 20 s of CPU for nothing.
  webServer: process.env.E2E_SKIP_SHARED_SERVERS
    ? []
    : [
        {
          // A real SMTP server the service sends e-mail through; the tests read what it received.
          command: 'npx tsx e2e/mail-sink.ts',
          cwd: repoRoot,
          url: `http://127.0.0.1:${mailPort}/health`,
          reuseExistingServer: false,
          timeout: 30_000,
          stdout: 'ignore',
          stderr: 'pipe',
          env: { E2E_SMTP_PORT: String(smtpPort), E2E_MAIL_PORT: String(mailPort) },
        },
        {
          // The first super admin is made the way an operator makes it, before the server starts.
          command:
            [E2E_ADMIN, E2E_CONSOLE_ADMIN, E2E_SCREENS_ADMIN]
              .map(
                (admin, i) =>
                  `printf "%s\\n" "$E2E_ADMIN_PASSWORD_${i}" | node apps/server/dist/admin.js create-super-admin ` +
                  `--email ${admin.email} --username ${admin.username}`,
              )
              .join(' && ') + ' && exec node apps/server/dist/main.js',
          cwd: repoRoot,
          url: `http://127.0.0.1:${port}/api/health`,
          reuseExistingServer: false,
          timeout: 60_000,
          stdout: 'ignore',
          stderr: 'pipe',
          env: {
            PORT: String(port),
            HOST: '127.0.0.1',
            OWNVOICE_DATA_DIR: dataDir,
            OWNVOICE_AUTH_RATE_LIMIT_IP: '1000',
            // Hermetic: never download a model in tests.
            OWNVOICE_BASE_MODEL: 'tiny',
            // Two epochs and four evaluation paragraphs, not the tiny preset's eight and 28: these tests
            // follow a training through the product; how well it trains is the engine's harness's test.
            OWNVOICE_TRAINING_EPOCHS: '2',
            OWNVOICE_EVALUATION_PARAGRAPHS: '4',
            E2E_ADMIN_PASSWORD_0: E2E_ADMIN.password,
            E2E_ADMIN_PASSWORD_1: E2E_CONSOLE_ADMIN.password,
            E2E_ADMIN_PASSWORD_2: E2E_SCREENS_ADMIN.password,
            LOG_LEVEL: 'warn',
            SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
            MAIL_FROM: 'OwnVoice <no-reply@ownvoice.test>',
          },
        },
      ],
});
