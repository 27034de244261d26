import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

describe('loadConfig', () => {
  it('has working defaults for the embedded setup', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ port: 8080, host: '127.0.0.1', databaseUrl: undefined, trustProxy: false });
    expect(config.dataDir).toBe(path.resolve('./data'));
  });

  it('reads every variable', () => {
    const config = loadConfig({
      PORT: '9000',
      HOST: '0.0.0.0',
      OWNVOICE_DATA_DIR: '/srv/ownvoice',
      DATABASE_URL: 'postgres://u:p@db:5432/ownvoice',
      OWNVOICE_BETA_CAP: '42',
      OWNVOICE_AUTH_RATE_LIMIT_IP: '5',
      OWNVOICE_AUTH_RATE_LIMIT_ACCOUNT: '3',
      OWNVOICE_AUTH_RATE_WINDOW_SECONDS: '120',
      OWNVOICE_TRUST_PROXY: 'true',
      LOG_LEVEL: 'warn',
      OWNVOICE_BILLING: 'none',
      OWNVOICE_TRAINING_EPOCHS: '2',
      OWNVOICE_TRAINING_PASSAGES: '16',
      OWNVOICE_EVALUATION_PARAGRAPHS: '4',
    });
    expect(config).toMatchObject({
      port: 9000,
      host: '0.0.0.0',
      dataDir: '/srv/ownvoice',
      databaseUrl: 'postgres://u:p@db:5432/ownvoice',
      betaCap: 42,
      authRateLimit: { perIp: 5, perAccount: 3, windowMs: 120_000 },
      trustProxy: true,
      logLevel: 'warn',
      training: { presetChanges: { epochs: 2, maxPassages: 16, evaluationParagraphs: 4 } },
    });
    expect(Object.values(loadConfig({}).training.presetChanges)).toEqual([undefined, undefined, undefined]);
  });

  it('sells through the offline test checkout by default only on a server nobody else can reach', () => {
    expect(loadConfig({}).billing.provider).toBe('offline');
    expect(loadConfig({ HOST: '::1', OWNVOICE_PUBLIC_URL: 'http://localhost:8080' }).billing.provider).toBe('offline');
    for (const env of [
      { HOST: '0.0.0.0' },
      { HOST: '192.168.1.20' },
      { OWNVOICE_TRUST_PROXY: 'true' },
      { OWNVOICE_PUBLIC_URL: 'https://ownvoice.example' },
    ]) {
      expect(() => loadConfig(env), JSON.stringify(env)).toThrow(/OWNVOICE_BILLING must be set on a server reachable/);
      // An explicit choice is the operator's, even the test checkout.
      expect(loadConfig({ ...env, OWNVOICE_BILLING: 'offline' }).billing.provider).toBe('offline');
      expect(loadConfig({ ...env, OWNVOICE_BILLING: 'none' }).billing.provider).toBe('none');
      expect(
        loadConfig({ ...env, STRIPE_SECRET_KEY: 'sk_test_x', STRIPE_WEBHOOK_SECRET: 'whsec_x' }).billing.provider,
      ).toBe('stripe');
    }
  });

  it('turns Stripe Tax on only when asked', () => {
    const stripe = { STRIPE_SECRET_KEY: 'sk_test_x', STRIPE_WEBHOOK_SECRET: 'whsec_x' };
    expect(loadConfig(stripe).billing).toMatchObject({ provider: 'stripe', automaticTax: false });
    expect(loadConfig({ ...stripe, OWNVOICE_STRIPE_AUTOMATIC_TAX: 'true' }).billing).toMatchObject({
      automaticTax: true,
    });
  });

  it('names every bad variable and says what it should be', () => {
    let error: unknown;
    try {
      loadConfig({
        PORT: 'eighty',
        DATABASE_URL: 'mysql://x',
        OWNVOICE_BETA_CAP: '-1',
        OWNVOICE_TRUST_PROXY: 'maybe',
      });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems.join('\n');
    expect(problems).toMatch(/PORT="eighty" must be a whole number from 0 to 65535/);
    expect(problems).toMatch(/DATABASE_URL="mysql:\/\/x" must be a postgres:\/\//);
    expect(problems).toMatch(/OWNVOICE_BETA_CAP="-1" must be a whole number/);
    expect(problems).toMatch(/OWNVOICE_TRUST_PROXY="maybe" must be true or false/);
  });

  it('runs inference embedded by default, or on the endpoints listed, with their key kept secret', () => {
    expect(loadConfig({}).inference).toEqual({
      urls: [],
      apiKey: undefined,
      adapterFormat: 'gguf',
      artifactDirOnEndpoints: undefined,
      maxAdaptersPerEndpoint: 64,
    });
    const config = loadConfig({
      OWNVOICE_INFERENCE_URLS: 'http://gpu-1:8000/v1, http://gpu-2:8000/',
      OWNVOICE_INFERENCE_KEY: 'k'.repeat(20),
      OWNVOICE_INFERENCE_ADAPTERS: 'peft',
      OWNVOICE_INFERENCE_ARTIFACT_DIR: '/mnt/ownvoice',
      OWNVOICE_INFERENCE_MAX_VOICES: '16',
    });
    expect(config.inference).toEqual({
      urls: ['http://gpu-1:8000', 'http://gpu-2:8000'],
      apiKey: 'k'.repeat(20),
      adapterFormat: 'peft',
      artifactDirOnEndpoints: '/mnt/ownvoice',
      maxAdaptersPerEndpoint: 16,
    });
    const bad = () =>
      loadConfig({
        OWNVOICE_INFERENCE_URLS: 'gpu-1:8000',
        OWNVOICE_INFERENCE_ADAPTERS: 'onnx',
        OWNVOICE_INFERENCE_KEY: 'x',
      });
    expect(bad).toThrow(/OWNVOICE_INFERENCE_URLS="gpu-1:8000" must be/);
    expect(bad).toThrow(/OWNVOICE_INFERENCE_ADAPTERS="onnx" must be gguf/);
    // A secret is never echoed, even next to a problem with another variable.
    expect(() =>
      loadConfig({ OWNVOICE_INFERENCE_KEY: 'secret-value-123', OWNVOICE_INFERENCE_MAX_VOICES: '0' }),
    ).not.toThrow(/secret-value-123/);
  });

  it('bounds how long a request may take to arrive and how many uploads run at once', () => {
    expect(loadConfig({})).toMatchObject({
      http: {
        requestTimeoutMs: 900_000,
        headersTimeoutMs: 30_000,
        bodyIdleTimeoutMs: 30_000,
        bodyMinBytesPerSecond: 64 * 1024,
        bodyGraceMs: 20_000,
      },
      uploads: { perUser: 2, perIp: 4, total: 32 },
    });
    const config = loadConfig({
      OWNVOICE_REQUEST_TIMEOUT_SECONDS: '20',
      OWNVOICE_BODY_IDLE_TIMEOUT_SECONDS: '5',
      OWNVOICE_BODY_MIN_KB_PER_SECOND: '16',
      OWNVOICE_BODY_GRACE_SECONDS: '10',
      OWNVOICE_UPLOADS_PER_USER: '1',
      OWNVOICE_UPLOADS_PER_IP: '3',
      OWNVOICE_UPLOADS_TOTAL: '4',
    });
    expect(config).toMatchObject({
      http: {
        requestTimeoutMs: 20_000,
        headersTimeoutMs: 20_000,
        bodyIdleTimeoutMs: 5_000,
        bodyMinBytesPerSecond: 16 * 1024,
        bodyGraceMs: 10_000,
      },
      uploads: { perUser: 1, perIp: 3, total: 4 },
    });
  });
});
