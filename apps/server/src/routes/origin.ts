// The address the browser used, for links the server hands back (checkouts, invitations) when
// OWNVOICE_PUBLIC_URL does not say otherwise.
import type { FastifyRequest } from 'fastify';

export const originOf = (request: FastifyRequest): string => `${request.protocol}://${request.host}`;
