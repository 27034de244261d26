// The server benches' settings from environment variables, read by the service's own rule for
// whole numbers (@ownvoice/shared's envInt): a bad value stops the bench and says what it should be.
import { envInt } from '@ownvoice/shared';

export function benchSetting(name: string, min: number, max: number): number | undefined;
export function benchSetting(name: string, min: number, max: number, fallback: number): number;
export function benchSetting(name: string, min: number, max: number, fallback?: number): number | undefined {
  const value = process.env[name];
  if (value === undefined || value === '') return fallback;
  const parsed = envInt(min, max).safeParse(value);
  if (!parsed.success) throw new Error(`${name}=${value}: ${parsed.error.issues[0]?.message}`);
  return parsed.data;
}
