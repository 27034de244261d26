// Configuration comes from the environment only, validated once at start. Each bad value is
// reported with the variable's name and what it should be, so the operator can fix it.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigError, envInt, parseEnv } from '@ownvoice/shared';
import { z } from 'zod';
import type { PresetChanges } from './engine/engine-host.js';
import type { InferenceSettings } from './inference/inference-host.js';

const bool = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(z.enum(['true', 'false', '1', '0', 'yes', 'no'], { error: 'must be true or false' }))
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const envSchema = z.object({
  PORT: envInt(0, 65535).default(8080),
  HOST: z.string().trim().min(1, 'must not be empty').default('127.0.0.1'),
  OWNVOICE_DATA_DIR: z.string().trim().min(1, 'must not be empty').default('./data'),
  DATABASE_URL: z
    .string()
    .trim()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// connection URL')
    .optional(),
  OWNVOICE_BETA_CAP: envInt(0, 10_000_000).default(500),
  OWNVOICE_AUTH_RATE_LIMIT_IP: envInt(1, 1_000_000).default(30),
  OWNVOICE_AUTH_RATE_LIMIT_ACCOUNT: envInt(1, 1_000_000).default(10),
  OWNVOICE_AUTH_RATE_WINDOW_SECONDS: envInt(1, 86_400).default(60),
  OWNVOICE_TRUST_PROXY: bool.default(false),
  OWNVOICE_WEBHOOKS_ALLOW_PRIVATE: bool.default(false),
  // Long enough for a 50 MB upload at the body pace below (decision 34); the pace is what cuts a slow body.
  OWNVOICE_REQUEST_TIMEOUT_SECONDS: envInt(10, 3600).default(900),
  OWNVOICE_BODY_IDLE_TIMEOUT_SECONDS: envInt(1, 600).default(30),
  OWNVOICE_BODY_MIN_KB_PER_SECOND: envInt(1, 1_000_000).default(64),
  OWNVOICE_BODY_GRACE_SECONDS: envInt(1, 600).default(20),
  OWNVOICE_UPLOADS_PER_USER: envInt(1, 1000).default(2),
  OWNVOICE_UPLOADS_PER_IP: envInt(1, 10_000).default(4),
  OWNVOICE_UPLOADS_TOTAL: envInt(1, 100_000).default(32),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  OWNVOICE_WEB_DIR: z.string().trim().min(1).optional(),
  OWNVOICE_DOWNLOADS_DIR: z.string().trim().min(1).optional(),
  OWNVOICE_BASE_MODEL: z.string().trim().min(1).optional(),
  OWNVOICE_STARTER_TRAININGS: envInt(0, 10_000).default(3),
  OWNVOICE_STARTER_ACTIVATION_HOURS: envInt(0, 100_000).default(10),
  OWNVOICE_STARTER_PROOFREADS: envInt(0, 1_000_000).default(200),
  OWNVOICE_STARTER_SHORT_CONTENT: envInt(0, 1_000_000).default(100),
  OWNVOICE_STARTER_STORAGE_SLOTS: envInt(0, 100_000).default(3),
  OWNVOICE_STARTER_DAYS: envInt(1, 3650).default(90),
  OWNVOICE_ARTIFACT_DIR: z.string().trim().min(1).optional(),
  OWNVOICE_TRAIN_PRESET: z.enum(['tiny', 'standard'], { error: 'must be tiny or standard' }).optional(),
  OWNVOICE_TRAINING_EPOCHS: envInt(1, 100).optional(),
  OWNVOICE_TRAINING_PASSAGES: envInt(4, 100_000).optional(),
  OWNVOICE_EVALUATION_PARAGRAPHS: envInt(2, 1000).optional(),
  OWNVOICE_IN_PROCESS_WORKER: bool.default(true),
  OWNVOICE_TRAINING_LEASE_SECONDS: envInt(5, 3600).default(120),
  OWNVOICE_VOICE_IDLE_MINUTES: envInt(1, 10_080).default(30),
  OWNVOICE_THREADS: envInt(1, 256).optional(),
  OWNVOICE_INFERENCE_URLS: z
    .string()
    .trim()
    .transform((v) => v.split(/[\s,]+/).filter(Boolean))
    .pipe(
      z
        .array(
          z
            .string()
            .url('must be base URLs (http://host:port, without /v1), separated by commas')
            .regex(/^https?:\/\//, 'must be http:// or https:// URLs')
            .transform((u) => u.replace(/\/+$/, '').replace(/\/v1$/, '')),
        )
        .min(1),
    )
    .optional(),
  OWNVOICE_INFERENCE_KEY: z.string().trim().min(1).optional(),
  OWNVOICE_INFERENCE_ADAPTERS: z
    .enum(['gguf', 'peft'], { error: 'must be gguf (OwnVoice inference) or peft (vLLM)' })
    .default('gguf'),
  OWNVOICE_INFERENCE_ARTIFACT_DIR: z.string().trim().min(1).optional(),
  OWNVOICE_INFERENCE_MAX_VOICES: envInt(1, 10_000).default(64),
  OWNVOICE_BILLING: z.enum(['stripe', 'offline', 'none'], { error: 'must be stripe, offline or none' }).optional(),
  STRIPE_SECRET_KEY: z
    .string()
    .trim()
    .regex(/^(sk|rk)_(test|live)_\w+$/, 'must be a Stripe secret key (sk_test_…, sk_live_… or a restricted rk_… key)')
    .optional(),
  STRIPE_WEBHOOK_SECRET: z
    .string()
    .trim()
    .regex(/^whsec_\w+$/, 'must be a webhook signing secret (whsec_…)')
    .optional(),
  STRIPE_PUBLISHABLE_KEY: z
    .string()
    .trim()
    .regex(/^pk_(test|live)_\w+$/, 'must be a publishable key (pk_…)')
    .optional(),
  STRIPE_API_BASE: z.string().trim().url('must be a URL such as http://127.0.0.1:12111').optional(),
  OWNVOICE_STRIPE_AUTOMATIC_TAX: bool.default(false),
  OWNVOICE_PUBLIC_URL: z
    .string()
    .trim()
    .url('must be the URL people open the service at, such as https://ownvoice.example')
    .optional(),
  OWNVOICE_PRIORITY_SUPPORT_URL: z.string().trim().url('must be the booking page URL').optional(),
  SMTP_URL: z
    .string()
    .trim()
    .regex(/^smtps?:\/\/\S+$/, 'must be an SMTP server URL such as smtp://user:password@mail.example:587')
    .optional(),
  MAIL_FROM: z
    .string()
    .trim()
    .min(3, 'must be a sender such as "OwnVoice <no-reply@example.com>"')
    .default('OwnVoice <no-reply@localhost>'),
  OWNVOICE_SECRET_KEY: z
    .string()
    .trim()
    .regex(/^([0-9a-fA-F]{64}|[A-Za-z0-9+/]{43}=)$/, 'must be 32 bytes as 64 hex digits or base64')
    .optional(),
});

// <repo>/dist/packages: this file and the bundle built from it (apps/server/dist/main.js) both sit
// two folders below the repository.
const DEFAULT_DOWNLOADS_DIR = fileURLToPath(new URL('../../../dist/packages', import.meta.url));

export type Config = {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  betaCap: number;
  authRateLimit: { perIp: number; perAccount: number; windowMs: number };
  trustProxy: boolean;
  /** Bounds on how long a client may take to send a request; none applies to the response. */
  http: {
    /** The whole request, headers and body, must arrive within this. */
    requestTimeoutMs: number;
    /** The headers must arrive within this (at most requestTimeoutMs). */
    headersTimeoutMs: number;
    /** A body that stops arriving for this long is cut, and an upload's files deleted. */
    bodyIdleTimeoutMs: number;
    /**
     * After `bodyGraceMs` of being read, a body must have come at this many bytes a second on
     * average, or it is refused with 408 (plugins/body-pace.ts): a trickle cannot hold an upload slot.
     */
    bodyMinBytesPerSecond: number;
    bodyGraceMs: number;
  };
  /** Uploads received at once, per signed-in user and in all; one more is refused with a 429. */
  /**
   * Uploads being received at once: per account, per client address, and in all; a quarter of
   * the total is kept for accounts sending their first.
   */
  uploads: { perUser: number; perIp: number; total: number };
  logLevel: z.infer<typeof envSchema>['LOG_LEVEL'];
  /** Folder of the built web app; undefined serves the API alone. */
  webDir: string | undefined;
  /** Folder of the offline app's packages offered at /download (`npm run package:deb` writes them). */
  downloadsDir: string;
  /** OWNVOICE_BASE_MODEL: a .gguf path, hf: URI, http(s) URL or "tiny"; undefined is the default. */
  baseModel: string | undefined;
  /**
   * What a new account gets on a server without payments (billing `none`): amounts, and how
   * long they last. Null when plans are sold: usage then comes from plans, packs and the trial.
   */
  starterAllowance: StarterAllowance | null;
  billing: BillingConfig;
  /** OWNVOICE_PUBLIC_URL: the address people reach the service at, for links the server hands out. */
  publicUrl: string | undefined;
  webhooks: {
    /**
     * OWNVOICE_WEBHOOKS_ALLOW_PRIVATE: deliver to hosts on loopback, private and link-local
     * addresses too. Off: a webhook cannot reach into the server's own network (SSRF).
     */
    allowPrivate: boolean;
  };
  /**
   * E-mail: through SMTP_URL's server from MAIL_FROM, or, without SMTP_URL, written to the data
   * folder's outbox (its links logged).
   */
  mail: {
    smtpUrl: string | undefined;
    from: string;
    outboxDir: string;
    /** Where links in messages point: OWNVOICE_PUBLIC_URL, else the address the server listens on. */
    siteUrl: string;
  };
  /** Where Voice files live; shared by every worker (a mounted folder on other machines). */
  artifactDir: string;
  training: {
    /** tiny or standard; undefined picks tiny for the house model and standard otherwise. */
    preset: 'tiny' | 'standard' | undefined;
    /** Whether this server process also trains (false when separate `npm run worker` processes do). */
    inProcessWorker: boolean;
    /** How long a worker's claim on a training lasts without renewal before another worker takes it over. */
    leaseSeconds: number;
    /** The operator's changes of the preset: its epochs and its evaluation's paragraphs. */
    presetChanges: PresetChanges;
  };
  /** An awake Voice unused this long is put to sleep. */
  voiceIdleMinutes: number;
  /** Encrypts two-factor secrets at rest; undefined uses (or creates) <dataDir>/secret.key. */
  secretKey: string | undefined;
  /** CPU threads for the model; undefined lets llama.cpp and PyTorch choose. */
  threads: number | undefined;
  /** Where Voices write: the endpoints of OWNVOICE_INFERENCE_URLS, or an embedded process (none given). */
  inference: InferenceSettings;
};

/**
 * How people pay. `stripe`: real payments through Stripe. `offline`: a test checkout page on this
 * server where no card is charged (the embedded default). `none`: no plans are sold.
 */
export type BillingConfig =
  | {
      provider: 'stripe';
      secretKey: string;
      webhookSecret: string;
      publishableKey: string | undefined;
      /** Another Stripe API host (a local stand-in in tests); undefined is Stripe itself. */
      apiBase: string | undefined;
      /** Stripe Tax computes the tax included in each price (OWNVOICE_STRIPE_AUTOMATIC_TAX). */
      automaticTax?: boolean;
      publicUrl: string | undefined;
      prioritySupportUrl: string | undefined;
    }
  | { provider: 'offline'; publicUrl: string | undefined; prioritySupportUrl: string | undefined }
  | { provider: 'none' };

export interface StarterAllowance {
  modelsTrained: number;
  activationHours: number;
  chunkEdits: number;
  shortContent: number;
  storageSlots: number;
  days: number;
}

/** Reads the environment; throws ConfigError listing every bad variable at once. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, defaults: { webDir?: string } = {}): Config {
  const e = parseEnv(envSchema, env, [
    'OWNVOICE_INFERENCE_KEY',
    'OWNVOICE_SECRET_KEY',
    'STRIPE_SECRET_KEY',
    'STRIPE_WEBHOOK_SECRET',
    'SMTP_URL',
  ]);
  const billing = billingConfig(e);
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.OWNVOICE_DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    betaCap: e.OWNVOICE_BETA_CAP,
    authRateLimit: {
      perIp: e.OWNVOICE_AUTH_RATE_LIMIT_IP,
      perAccount: e.OWNVOICE_AUTH_RATE_LIMIT_ACCOUNT,
      windowMs: e.OWNVOICE_AUTH_RATE_WINDOW_SECONDS * 1000,
    },
    trustProxy: e.OWNVOICE_TRUST_PROXY,
    http: {
      requestTimeoutMs: e.OWNVOICE_REQUEST_TIMEOUT_SECONDS * 1000,
      headersTimeoutMs: Math.min(30, e.OWNVOICE_REQUEST_TIMEOUT_SECONDS) * 1000,
      bodyIdleTimeoutMs: e.OWNVOICE_BODY_IDLE_TIMEOUT_SECONDS * 1000,
      bodyMinBytesPerSecond: e.OWNVOICE_BODY_MIN_KB_PER_SECOND * 1024,
      bodyGraceMs: e.OWNVOICE_BODY_GRACE_SECONDS * 1000,
    },
    uploads: {
      perUser: e.OWNVOICE_UPLOADS_PER_USER,
      perIp: e.OWNVOICE_UPLOADS_PER_IP,
      total: e.OWNVOICE_UPLOADS_TOTAL,
    },
    logLevel: e.LOG_LEVEL,
    webDir: e.OWNVOICE_WEB_DIR ? path.resolve(e.OWNVOICE_WEB_DIR) : defaults.webDir,
    downloadsDir: path.resolve(e.OWNVOICE_DOWNLOADS_DIR ?? DEFAULT_DOWNLOADS_DIR),
    baseModel: e.OWNVOICE_BASE_MODEL,
    billing,
    publicUrl: e.OWNVOICE_PUBLIC_URL,
    webhooks: { allowPrivate: e.OWNVOICE_WEBHOOKS_ALLOW_PRIVATE },
    mail: {
      smtpUrl: e.SMTP_URL,
      from: e.MAIL_FROM,
      outboxDir: path.join(path.resolve(e.OWNVOICE_DATA_DIR), 'outbox'),
      siteUrl: (
        e.OWNVOICE_PUBLIC_URL ?? `http://${['0.0.0.0', '::'].includes(e.HOST) ? 'localhost' : e.HOST}:${e.PORT}`
      ).replace(/\/+$/, ''),
    },
    starterAllowance:
      billing.provider !== 'none'
        ? null
        : {
            modelsTrained: e.OWNVOICE_STARTER_TRAININGS,
            activationHours: e.OWNVOICE_STARTER_ACTIVATION_HOURS,
            chunkEdits: e.OWNVOICE_STARTER_PROOFREADS,
            shortContent: e.OWNVOICE_STARTER_SHORT_CONTENT,
            storageSlots: e.OWNVOICE_STARTER_STORAGE_SLOTS,
            days: e.OWNVOICE_STARTER_DAYS,
          },
    artifactDir: path.resolve(e.OWNVOICE_ARTIFACT_DIR ?? e.OWNVOICE_DATA_DIR),
    training: {
      preset: e.OWNVOICE_TRAIN_PRESET,
      inProcessWorker: e.OWNVOICE_IN_PROCESS_WORKER,
      leaseSeconds: e.OWNVOICE_TRAINING_LEASE_SECONDS,
      presetChanges: {
        epochs: e.OWNVOICE_TRAINING_EPOCHS,
        maxPassages: e.OWNVOICE_TRAINING_PASSAGES,
        evaluationParagraphs: e.OWNVOICE_EVALUATION_PARAGRAPHS,
      },
    },
    voiceIdleMinutes: e.OWNVOICE_VOICE_IDLE_MINUTES,
    threads: e.OWNVOICE_THREADS,
    secretKey: e.OWNVOICE_SECRET_KEY,
    inference: {
      urls: e.OWNVOICE_INFERENCE_URLS ?? [],
      apiKey: e.OWNVOICE_INFERENCE_KEY,
      adapterFormat: e.OWNVOICE_INFERENCE_ADAPTERS,
      artifactDirOnEndpoints: e.OWNVOICE_INFERENCE_ARTIFACT_DIR,
      maxAdaptersPerEndpoint: e.OWNVOICE_INFERENCE_MAX_VOICES,
    },
  };
}

/** Loopback addresses: a server bound to one of these, with no public address, is one person's own. */
const LOOPBACK_HOST = /^(localhost|127(\.\d{1,3}){3}|::1|\[::1\])$/i;

/**
 * Whether people on other machines can reach the server: it listens beyond loopback, sits behind
 * a proxy, or names a public address for its links.
 */
function reachableFromElsewhere(e: {
  HOST: string;
  OWNVOICE_TRUST_PROXY: boolean;
  OWNVOICE_PUBLIC_URL?: string | undefined;
}): boolean {
  const publicHost = e.OWNVOICE_PUBLIC_URL ? new URL(e.OWNVOICE_PUBLIC_URL).hostname : null;
  return (
    !LOOPBACK_HOST.test(e.HOST) || e.OWNVOICE_TRUST_PROXY || (publicHost !== null && !LOOPBACK_HOST.test(publicHost))
  );
}

function billingConfig(e: z.infer<typeof envSchema>): BillingConfig {
  // The offline test checkout sells every plan for a click, so it is the default only on a server
  // nobody else can reach; anywhere else the operator must say how plans are sold (never fail open).
  if (!e.OWNVOICE_BILLING && !e.STRIPE_SECRET_KEY && reachableFromElsewhere(e)) {
    throw new ConfigError([
      'OWNVOICE_BILLING must be set on a server reachable from other machines (HOST beyond loopback, ' +
        'OWNVOICE_TRUST_PROXY or a public OWNVOICE_PUBLIC_URL): stripe (with STRIPE_SECRET_KEY and ' +
        'STRIPE_WEBHOOK_SECRET) to sell plans, none to sell nothing, or offline for a test checkout that ' +
        'gives plans away to anyone who clicks Pay',
    ]);
  }
  const provider = e.OWNVOICE_BILLING ?? (e.STRIPE_SECRET_KEY ? 'stripe' : 'offline');
  const links = { publicUrl: e.OWNVOICE_PUBLIC_URL, prioritySupportUrl: e.OWNVOICE_PRIORITY_SUPPORT_URL };
  if (provider === 'none') return { provider };
  if (provider === 'offline') return { provider, ...links };
  const problems = [
    ...(e.STRIPE_SECRET_KEY ? [] : ['STRIPE_SECRET_KEY is required with OWNVOICE_BILLING=stripe']),
    ...(e.STRIPE_WEBHOOK_SECRET
      ? []
      : [
          'STRIPE_WEBHOOK_SECRET is required with OWNVOICE_BILLING=stripe (the signing secret of the webhook endpoint)',
        ]),
  ];
  if (!e.STRIPE_SECRET_KEY || !e.STRIPE_WEBHOOK_SECRET) throw new ConfigError(problems);
  return {
    provider,
    secretKey: e.STRIPE_SECRET_KEY,
    webhookSecret: e.STRIPE_WEBHOOK_SECRET,
    publishableKey: e.STRIPE_PUBLISHABLE_KEY,
    apiBase: e.STRIPE_API_BASE,
    automaticTax: e.OWNVOICE_STRIPE_AUTOMATIC_TAX,
    ...links,
  };
}

export { ConfigError };
