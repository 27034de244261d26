// A message's text as an admin may read it (decision 34): every key in its links masked. A key is
// what opens something by itself being known: the `token` of a reset or confirmation link, the
// last part of an invitation's, and any other run of 32 or more URL-safe characters in a link (our
// keys are 43; a payment page's id is as long). Ids (24 hex digits, UUIDs) are not keys and stay.
import { MASKED_KEY } from '@ownvoice/shared';

/** A link in a message's text, as `linksIn` (transport.ts) finds them for the log. */
const LINK = /https?:\/\/\S+/g;
/** 32+ characters of base64url: shorter runs are paths and ids, not secrets. */
const LONG_RUN = /[A-Za-z0-9_-]{32,}/g;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** `?token=…` or `&token=…`, whatever its length. */
const TOKEN_PARAM = /([?&]token=)[^&#\s]+/g;
/** `/invite/…`, whatever its length. */
const INVITE_PATH = /(\/invite\/)[^/?#\s]+/g;

function maskLink(link: string): string {
  return link
    .replace(TOKEN_PARAM, `$1${MASKED_KEY}`)
    .replace(INVITE_PATH, `$1${MASKED_KEY}`)
    .replace(LONG_RUN, (run) => (UUID.test(run) ? run : MASKED_KEY));
}

/** The text with each link's keys masked, and whether any was. */
export function maskLinkKeys(text: string): { text: string; masked: boolean } {
  let masked = false;
  const out = text.replace(LINK, (link) => {
    const safe = maskLink(link);
    if (safe !== link) masked = true;
    return safe;
  });
  return { text: out, masked };
}
