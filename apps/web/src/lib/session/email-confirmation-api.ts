// Sending the signed-in account's confirmation link again: the layout's notice, the account page
// and the pages that need a confirmed address all ask for it.
import { linkSentResponseSchema } from '@ownvoice/shared';
import { api } from '../api';

/** What to look for, in the server's words ("We sent a link to …"). */
export async function resendConfirmation(): Promise<string> {
  return (await api.post('/auth/email/resend', undefined, { schema: linkSentResponseSchema })).msg;
}
