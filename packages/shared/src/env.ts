// Reading settings from environment variables, for every process of the service (the API server,
// the inference server): the same variable is read the same way everywhere, and a bad value says
// what it should be.
import { z } from 'zod';

/** A whole number from min to max, given as a string. */
export const envInt = (min: number, max: number) =>
  z
    .string()
    .trim()
    .regex(/^\d+$/, `must be a whole number from ${min} to ${max}`)
    .transform(Number)
    .pipe(z.number().int().min(min, `must be at least ${min}`).max(max, `must be at most ${max}`));

/** Every bad setting at once, each as `NAME=value problem`, so the operator can fix them all. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/**
 * The environment parsed by a schema of its variables, or a ConfigError listing every bad one.
 * Empty strings count as unset, as most shells and .env files mean them. Secrets' values are
 * never echoed.
 */
export function parseEnv<T extends z.ZodType>(
  schema: T,
  env: Readonly<Record<string, string | undefined>>,
  secrets: readonly string[] = [],
): z.infer<T> {
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = schema.safeParse(present);
  if (parsed.success) return parsed.data;
  throw new ConfigError(
    parsed.error.issues.map((issue) => {
      const name = String(issue.path[0]);
      return `${name}=${secrets.includes(name) ? '(hidden)' : JSON.stringify(env[name])} ${issue.message}`;
    }),
  );
}

/**
 * The one line the inference server writes to standard output, once it listens, followed by its
 * address (http://host:port, or unix:/path for a Unix socket); a supervising API server reads it.
 */
export const INFERENCE_LISTENING_PREFIX = 'inference listening on ';
