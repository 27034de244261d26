// Builds the real application over a real database for API tests, with a clock the test moves
// and a small client that does what the browser does: fetch a CSRF token, keep the cookie,
// send the bearer token.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { type AppDeps, buildApp } from '../app.js';
import type { Clock } from '../clock.js';
import { type Config, loadConfig } from '../config.js';
import type { DatabaseHandle } from '../db/client.js';
import type { PresetChanges } from '../engine/engine-host.js';
import { UNHANDLED_ERROR_LOG } from '../plugins/error-handler.js';
import { UsersRepository } from '../repositories/users.repository.js';
import type { TrainingWorker, TrainingWorkerOptions } from '../workers/training-worker.js';
import { TestClock } from './test-clock.js';
import { openTestDatabase } from './test-database.js';

export { TestClock };

export interface TestContext {
  app: FastifyInstance;
  config: Config;
  database: DatabaseHandle;
  clock: TestClock;
  client: (options?: { ip?: string }) => TestClient;
  /**
   * Starts the house model and an in-process training worker (stopped by close()). The engine
   * trains with the tiny preset, as it does for the house model in the product.
   */
  startWorker(options?: Partial<TrainingWorkerOptions>): Promise<TrainingWorker>;
  close(): Promise<void>;
}

export async function createTestContext(
  overrides: Partial<Omit<Config, 'authRateLimit' | 'training'>> & {
    authRateLimit?: Partial<Config['authRateLimit']>;
    training?: Partial<Omit<Config['training'], 'presetChanges'>> & { presetChanges?: PresetChanges };
  } = {},
  deps: Pick<AppDeps, 'baseModel' | 'checkResponses' | 'logger'> & { clock?: Clock } = {},
): Promise<TestContext> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'ownvoice-test-data-'));
  // Without payments unless a test asks for them: accounts start with the configured allowance.
  // Trainings of two epochs over 16 passages with four evaluation paragraphs, not the tiny
  // preset's eight, 200 and 28: these tests are about what the server does with a training; how
  // well it trains and measures is the engine's to test (harness/). On two quiet cores a training
  // of the tests' 21,000 characters took 46 s of CPU over all 58 passages, 16 s over 16 (most of
  // it the base model's paraphrases).
  const base = loadConfig({
    OWNVOICE_DATA_DIR: dataDir,
    OWNVOICE_BILLING: 'none',
    OWNVOICE_TRAINING_EPOCHS: '2',
    OWNVOICE_TRAINING_PASSAGES: '16',
    OWNVOICE_EVALUATION_PARAGRAPHS: '4',
  });
  const config: Config = {
    ...base,
    ...overrides,
    webDir: overrides.webDir,
    authRateLimit: { ...base.authRateLimit, perIp: 10_000, perAccount: 10_000, ...overrides.authRateLimit },
    training: {
      ...base.training,
      ...overrides.training,
      // A test's changes of the preset go over the tests' own, each on its own (as a worker's do: platform.ts).
      presetChanges: { ...base.training.presetChanges, ...overrides.training?.presetChanges },
    },
  };
  const database = await openTestDatabase();
  const clock = new TestClock();
  // Every answer is also encoded by zod and compared, unless a caller measures production's way.
  const app = await buildApp({
    config,
    database,
    clock: deps.clock ?? clock,
    // No test expects a 500: the cause of one is printed (with the test's name, by vitest), since
    // the answer itself says only "something went wrong".
    logger: { level: 'error', stream: { write: printUnexpected } },
    checkResponses: true,
    ...deps,
  });
  await app.ready();
  const workers: TrainingWorker[] = [];
  return {
    app,
    config,
    database,
    clock,
    client: (options = {}) =>
      new TestClient(app, options.ip ?? '127.0.0.1', async (userId) => {
        await new UsersRepository(database.db, clock).update(userId, { emailVerifiedAt: clock.now() });
      }),
    startWorker: async (options = {}) => {
      const { platform } = app;
      if (platform.baseModel.status.state !== 'ready') {
        await platform.baseModel.start({ spec: 'tiny', dataDir, log: () => {} });
      }
      const worker = platform.trainingWorker({ pollingIntervalSeconds: 0.5, ...options });
      workers.push(worker);
      await worker.start();
      return worker;
    },
    close: async () => {
      for (const worker of workers) await worker.stop();
      await app.close();
      await database.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The log line of an error answered 500 (plugins/error-handler.ts), to stderr. */
function printUnexpected(line: string): void {
  if (line.includes(`"msg":${JSON.stringify(UNHANDLED_ERROR_LOG)}`)) process.stderr.write(line);
}

export interface MultipartForm {
  fields?: Record<string, string>;
  files?: { field?: string; name: string; data: Buffer | string }[];
}

/** A multipart/form-data body: fields first, then files (field "files" unless named). */
export function encodeMultipart(form: MultipartForm): { payload: Buffer; contentType: string } {
  const boundary = `----ownvoice${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(form.fields ?? {})) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  for (const file of form.files ?? []) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${file.field ?? 'files'}"; filename="${file.name}"\r\n` +
          'Content-Type: application/octet-stream\r\n\r\n',
      ),
      Buffer.isBuffer(file.data) ? file.data : Buffer.from(file.data),
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

let counter = 0;
/** A unique, valid registration body. */
export function newAccount(prefix = 'user') {
  counter += 1;
  const id = `${prefix}${counter}${Math.random().toString(36).slice(2, 6)}`;
  return { username: id, email: `${id}@example.com`, password: 'Passw0rdOk' };
}

export class TestClient {
  /** Cookies as a browser keeps them: the CSRF secret, the device cookie. */
  readonly cookies = new Map<string, string>();
  private csrfToken: string | undefined;
  token: string | undefined;
  /** The password the client signed up with, for what asks for it again. */
  password: string | undefined;

  constructor(
    private readonly app: FastifyInstance,
    private readonly ip: string,
    /** Marks the account's address confirmed, as opening the sign-up's link would. */
    private readonly confirmAddress: (userId: string) => Promise<void>,
  ) {}

  async csrf(): Promise<string> {
    if (this.csrfToken) return this.csrfToken;
    const res = this.keepCookies(
      await this.app.inject({
        method: 'GET',
        url: '/api/csrf-token',
        headers: this.cookieHeader(),
        remoteAddress: this.ip,
      }),
    );
    this.csrfToken = res.json<{ csrfToken: string }>().csrfToken;
    return this.csrfToken;
  }

  /** The cookie and header a browser sends with a state-changing request. */
  async csrfHeaders(): Promise<Record<string, string>> {
    const token = await this.csrf();
    return { 'x-csrf-token': token, ...this.cookieHeader() };
  }

  /** Every cookie kept, sent with every request as a browser does. */
  private cookieHeader(): Record<string, string> {
    const cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    return cookie ? { cookie } : {};
  }

  private keepCookies(res: LightMyRequestResponse): LightMyRequestResponse {
    for (const { name, value } of res.cookies as { name: string; value: string }[]) this.cookies.set(name, value);
    return res;
  }

  async request(
    method: InjectOptions['method'],
    url: string,
    body?: unknown,
    extraHeaders: Record<string, string> = {},
  ): Promise<LightMyRequestResponse> {
    const headers: Record<string, string> = { ...this.cookieHeader(), ...extraHeaders };
    if (method !== 'GET' && method !== 'HEAD') Object.assign(headers, await this.csrfHeaders());
    if (this.token) headers.authorization = `Bearer ${this.token}`;
    return this.keepCookies(
      await this.app.inject({
        method,
        url,
        headers,
        remoteAddress: this.ip,
        ...(body === undefined ? {} : { payload: body as InjectOptions['payload'] }),
      }),
    );
  }

  /** Sends a multipart/form-data body, as the browser's FormData does. */
  async upload(url: string, form: MultipartForm): Promise<LightMyRequestResponse> {
    const { payload, contentType } = encodeMultipart(form);
    const headers: Record<string, string> = { ...(await this.csrfHeaders()), 'content-type': contentType };
    if (this.token) headers.authorization = `Bearer ${this.token}`;
    return this.keepCookies(await this.app.inject({ method: 'POST', url, headers, remoteAddress: this.ip, payload }));
  }

  get = (url: string) => this.request('GET', url);
  post = (url: string, body?: unknown) => this.request('POST', url, body ?? {});
  patch = (url: string, body?: unknown) => this.request('PATCH', url, body ?? {});
  put = (url: string, body?: unknown) => this.request('PUT', url, body ?? {});
  delete = (url: string, body?: unknown) => this.request('DELETE', url, body);
  /** Makes an API key as the account page does: with the password again (decision 33). */
  createApiKey = (body: Record<string, unknown>) =>
    this.post('/api/auth/api-keys', { currentPassword: this.password, ...body });

  /**
   * Registers and keeps the session token. The address is then confirmed (through the repository,
   * as if the mailed link was opened: the trial and invitations need it) unless `confirmed` is
   * false; `res` is the sign-up's own answer, from before the confirmation.
   */
  async register(account = newAccount(), { confirmed = true }: { confirmed?: boolean } = {}) {
    const res = await this.post('/api/auth/register', account);
    if (res.statusCode !== 201) throw new Error(`register failed: ${res.statusCode} ${res.body}`);
    this.token = res.json<{ token: string }>().token;
    this.password = account.password;
    if (confirmed) await this.confirmAddress(res.json<{ user: { id: string } }>().user.id);
    return { account, res };
  }
}
