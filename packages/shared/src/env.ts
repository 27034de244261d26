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
