// The inference server's settings, from the environment only, validated once at start. Each bad
// value is reported with the variable's name and what it should be. OWNVOICE_BASE_MODEL,
// OWNVOICE_DATA_DIR and OWNVOICE_THREADS mean what they mean to the API server (apps/server's
// config.ts), so one environment can start both.
import { isIP } from 'node:net';
import path from 'node:path';
import { ConfigError, envInt, parseEnv } from '@ownvoice/shared';
import { z } from 'zod';

/** Shortest bearer key taken: it guards a model server on the network, so it must be a random secret. */
export const MIN_KEY_LENGTH = 16;

const envSchema = z.object({
  OWNVOICE_INFERENCE_HOST: z.string().trim().min(1, 'must not be empty').default('127.0.0.1'),
  OWNVOICE_INFERENCE_PORT: envInt(0, 65535).default(8001),
  OWNVOICE_INFERENCE_SOCKET: z
    .string()
    .trim()
    .refine((p) => path.isAbsolute(p), 'must be an absolute path')
    .optional(),
  OWNVOICE_INFERENCE_KEY: z
    .string()
    .trim()
    .min(MIN_KEY_LENGTH, `must be at least ${MIN_KEY_LENGTH} characters (a random secret)`)
    .optional(),
  OWNVOICE_INFERENCE_MODEL_NAME: z
    .string()
    .trim()
    .regex(/^[\w.:/-]{1,200}$/, 'must be a model name of letters, digits and . _ - : / (at most 200)')
    .optional(),
  OWNVOICE_BASE_MODEL: z.string().trim().min(1).optional(),
  OWNVOICE_DATA_DIR: z.string().trim().min(1, 'must not be empty').default('./data'),
  OWNVOICE_THREADS: envInt(1, 256).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export interface InferenceConfig {
  host: string;
  /** 0 picks any free port; main.ts prints the one it got. */
  port: number;
  /**
   * A Unix socket to listen on instead of host and port, in a folder only this OS user may enter
   * (how the API server runs it embedded): no other local user can connect to it.
   */
  socket: string | undefined;
  /** The bearer key every /v1 request must carry; undefined (loopback only) lets any local caller in. */
  apiKey: string | undefined;
  /** The name the base model is served under; undefined is its file name without .gguf. */
  servedModelName: string | undefined;
  /** OWNVOICE_BASE_MODEL: a .gguf path, hf: URI, http(s) URL or "tiny"; undefined is the default. */
  baseModel: string | undefined;
  /** Where a downloaded base model is kept (<dataDir>/models). */
  dataDir: string;
  /** CPU threads for llama.cpp; undefined lets the engine choose. */
  threads: number | undefined;
  logLevel: z.infer<typeof envSchema>['LOG_LEVEL'];
}

/** True for addresses only this machine can reach. */
export function isLoopback(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (h === 'localhost') return true;
  if (isIP(h) === 4) return h.startsWith('127.');
  if (isIP(h) === 6) return h === '::1' || /^::ffff:127\./.test(h);
  return false;
}

/** Reads the environment; throws ConfigError listing every bad variable at once. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): InferenceConfig {
  const e = parseEnv(envSchema, env, ['OWNVOICE_INFERENCE_KEY']);
  // Anyone who can reach the port could run the model and load files as adapters.
  if (!e.OWNVOICE_INFERENCE_SOCKET && !isLoopback(e.OWNVOICE_INFERENCE_HOST) && !e.OWNVOICE_INFERENCE_KEY) {
    throw new ConfigError([
      `OWNVOICE_INFERENCE_KEY is required when OWNVOICE_INFERENCE_HOST (${e.OWNVOICE_INFERENCE_HOST}) is not a loopback address: set it to a random secret of at least ${MIN_KEY_LENGTH} characters, or listen on 127.0.0.1`,
    ]);
  }
  return {
    host: e.OWNVOICE_INFERENCE_HOST,
    port: e.OWNVOICE_INFERENCE_PORT,
    socket: e.OWNVOICE_INFERENCE_SOCKET,
    apiKey: e.OWNVOICE_INFERENCE_KEY,
    servedModelName: e.OWNVOICE_INFERENCE_MODEL_NAME,
    baseModel: e.OWNVOICE_BASE_MODEL,
    dataDir: path.resolve(e.OWNVOICE_DATA_DIR),
    threads: e.OWNVOICE_THREADS,
    logLevel: e.LOG_LEVEL,
  };
}

export { ConfigError };
