// Input hygiene shared by every form: strip NUL characters, trim.
import { z } from 'zod';

export const stripNul = (value: string): string => value.replaceAll('\0', '');
export const cleanText = (value: string): string => stripNul(value).trim();

/** A string that is NUL-stripped and trimmed before any rule sees it. */
export const cleanString = () => z.string().transform(cleanText);
