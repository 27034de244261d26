// Route schemas of /api/auth/api-keys: the rules come from @ownvoice/shared (api-keys.ts).
import {
  apiErrorBodySchema,
  apiKeyIdParamsSchema,
  apiKeyListSchema,
  createApiKeyRequestSchema,
  createdApiKeySchema,
  okResponseSchema,
} from '@ownvoice/shared';

const errorResponses = { 400: apiErrorBodySchema, 401: apiErrorBodySchema, 403: apiErrorBodySchema };

export const listApiKeysSchema = { response: { 200: apiKeyListSchema, ...errorResponses } };

export const createApiKeySchema = {
  body: createApiKeyRequestSchema,
  response: { 201: createdApiKeySchema, ...errorResponses, 409: apiErrorBodySchema, 429: apiErrorBodySchema },
};

export const revokeApiKeySchema = {
  params: apiKeyIdParamsSchema,
  response: { 200: okResponseSchema, ...errorResponses, 404: apiErrorBodySchema },
};
