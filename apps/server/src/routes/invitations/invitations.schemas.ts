// Route schemas of /api/invitations: reading an admin invitation and accepting it.
import {
  acceptInvitationBodySchema,
  apiErrorBodySchema,
  invitationInfoSchema,
  invitationTokenParamsSchema,
  userSchema,
} from '@ownvoice/shared';
import { z } from 'zod';

const errorResponses = {
  400: apiErrorBodySchema,
  403: apiErrorBodySchema,
  404: apiErrorBodySchema,
  410: apiErrorBodySchema,
};

export const invitationSchema = {
  params: invitationTokenParamsSchema,
  response: { 200: invitationInfoSchema, ...errorResponses },
};

export const acceptSchema = {
  params: invitationTokenParamsSchema,
  body: acceptInvitationBodySchema,
  response: {
    // A new account: signed in, like a sign-up.
    201: z.object({ token: z.string(), user: userSchema }),
    // An existing account's role raised.
    200: z.object({ user: userSchema }),
    ...errorResponses,
    401: apiErrorBodySchema,
    409: apiErrorBodySchema,
    429: apiErrorBodySchema,
  },
};
