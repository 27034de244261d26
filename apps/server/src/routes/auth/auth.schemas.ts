// Route schemas of /api/auth: the request rules come from @ownvoice/shared (the same ones the
// web forms use); responses are the shared User shapes, which strip anything not listed.
import {
  apiErrorBodySchema,
  authResponseSchema,
  changeEmailBodySchema,
  changePasswordBodySchema,
  deleteAccountBodySchema,
  linkSentResponseSchema,
  loginBodySchema,
  loginResponseSchema,
  meResponseSchema,
  mfaDisableBodySchema,
  mfaSetupResponseSchema,
  mfaVerifyBodySchema,
  mfaVerifyResponseSchema,
  noticeSettingsBodySchema,
  okResponseSchema,
  onboardingPatchSchema,
  ownActivitiesResponseSchema,
  registerBodySchema,
  verifyEmailBodySchema,
  verifyEmailResponseSchema,
} from '@ownvoice/shared';

const errorResponses = {
  400: apiErrorBodySchema,
  401: apiErrorBodySchema,
  403: apiErrorBodySchema,
  409: apiErrorBodySchema,
  423: apiErrorBodySchema,
  429: apiErrorBodySchema,
};

export const registerSchema = {
  body: registerBodySchema,
  response: { 201: authResponseSchema, ...errorResponses },
};

export const loginSchema = {
  body: loginBodySchema,
  response: { 200: loginResponseSchema, ...errorResponses },
};

export const meSchema = { response: { 200: meResponseSchema, 401: apiErrorBodySchema } };

export const logoutSchema = { response: { 200: okResponseSchema, 401: apiErrorBodySchema } };

export const onboardingSchema = {
  body: onboardingPatchSchema,
  response: { 200: meResponseSchema, ...errorResponses },
};

export const mfaSetupSchema = { response: { 200: mfaSetupResponseSchema, ...errorResponses } };
export const mfaVerifySchema = {
  body: mfaVerifyBodySchema,
  response: { 200: mfaVerifyResponseSchema, ...errorResponses },
};
export const mfaDisableSchema = { body: mfaDisableBodySchema, response: { 200: okResponseSchema, ...errorResponses } };
export const deleteAccountSchema = {
  body: deleteAccountBodySchema,
  // 503: the payment provider could not end the subscription, so nothing was deleted.
  response: { 200: okResponseSchema, ...errorResponses, 503: apiErrorBodySchema },
};

export const activitiesSchema = { response: { 200: ownActivitiesResponseSchema, ...errorResponses } };

// The address and the password after sign-up (routes/auth/email.routes.ts, password.routes.ts).
export const verifyEmailSchema = {
  body: verifyEmailBodySchema,
  // 403: an old sign-up confirming while the beta is full; 409: a new address taken meanwhile.
  response: { 200: verifyEmailResponseSchema, ...errorResponses },
};
export const resendEmailSchema = { response: { 202: linkSentResponseSchema, ...errorResponses } };
export const changeEmailSchema = {
  body: changeEmailBodySchema,
  response: { 202: linkSentResponseSchema, ...errorResponses },
};
export const changePasswordSchema = {
  body: changePasswordBodySchema,
  response: { 200: okResponseSchema, ...errorResponses },
};
export const noticeSettingsSchema = {
  body: noticeSettingsBodySchema,
  response: { 200: meResponseSchema, ...errorResponses },
};
