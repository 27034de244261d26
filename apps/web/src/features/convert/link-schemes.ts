// Links in the Convert editor only with the schemes of ALLOWED_LINK_SCHEMES. A link
// without a scheme (relative, anchor) is refused too, and so is any scheme hidden behind
// whitespace or control characters ("java\tscript:").
import { ALLOWED_LINK_SCHEMES } from '@ownvoice/shared';

const IGNORED_CHARACTERS = /[\p{Cc}\p{Cf}\p{Z}\s]/gu;
const SCHEME = /^([a-z][a-z0-9+.-]*):/i;
const allowed: ReadonlySet<string> = new Set(ALLOWED_LINK_SCHEMES);

/** The scheme of a link, lower-cased, or null when it has none. */
export function linkScheme(uri: string): string | null {
  const match = SCHEME.exec(uri.replace(IGNORED_CHARACTERS, ''));
  return match?.[1]?.toLowerCase() ?? null;
}

export function isAllowedLinkUri(uri: string | null | undefined): boolean {
  if (typeof uri !== 'string') return false;
  const scheme = linkScheme(uri);
  return scheme !== null && allowed.has(scheme);
}
