// The invitation page's calls: what an invitation offers (no sign-in needed), and accepting it,
// by signing up (a new address) or as the signed-in account it was sent to.
import {
  authResponseSchema,
  type InvitationInfo,
  invitationInfoSchema,
  meResponseSchema,
  type User,
} from '@ownvoice/shared';
import { api } from '../../lib/api';

const invitationUrl = (token: string) => `/invitations/${encodeURIComponent(token)}`;

export const fetchInvitation = (token: string, signal?: AbortSignal): Promise<InvitationInfo> =>
  api.get(invitationUrl(token), { schema: invitationInfoSchema, token: null, ...(signal ? { signal } : {}) });

/** Creates the invited account (answered like registration); returns its session token. */
export async function acceptWithNewAccount(
  token: string,
  body: { username: string; password: string },
): Promise<string> {
  // Sent without any session: the new account is not whoever may be signed in here.
  const answer = await api.post(`${invitationUrl(token)}/accept`, body, { schema: authResponseSchema, token: null });
  return answer.token;
}

/** Accepts for the signed-in account, which must be the invited address; returns it with its new role. */
export async function acceptAsSignedIn(token: string): Promise<User> {
  const answer = await api.post(`${invitationUrl(token)}/accept`, {}, { schema: meResponseSchema });
  return answer.user;
}
