// The headers a careful team sets on every answer, the web app's and the API's (helmet). The web
// app keeps its session token where page scripts can read it, so the Content-Security-Policy is
// what stands between one injected script and every token: scripts only from this origin, no
// inline script and no eval (Vite emits none; the app tells zod not to compile), nothing may frame
// the app, and nothing is sent or posted anywhere but here. Styles may be inline: Mantine writes
// style attributes and one <style> of CSS variables, which carry no script.
//
// None of these depends on the request (there are no nonces), so helmet works them out once, when
// the app is built, and each answer only copies them: @fastify/helmet built helmet anew from its
// options for every request, which took GET / to 0.37x a bare Fastify route (bench/load.ts).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

/** One year: browsers then refuse plain http to this host. */
const HSTS = 'max-age=31536000; includeSubDomains';

export const CONTENT_SECURITY_POLICY: Record<string, string[]> = {
  'default-src': ["'self'"],
  'script-src': ["'self'"],
  'script-src-attr': ["'none'"],
  'style-src': ["'self'", "'unsafe-inline'"],
  // QR codes for two-factor come as data: URLs.
  'img-src': ["'self'", 'data:', 'blob:'],
  'media-src': ["'self'"],
  'font-src': ["'self'"],
  'connect-src': ["'self'"],
  'worker-src': ["'self'"],
  'manifest-src': ["'self'"],
  'object-src': ["'none'"],
  'frame-src': ["'none'"],
  'frame-ancestors': ["'none'"],
  'base-uri': ["'none'"],
  'form-action': ["'self'"],
};

const HELMET_OPTIONS: Readonly<HelmetOptions> = {
  contentSecurityPolicy: { useDefaults: false, directives: CONTENT_SECURITY_POLICY },
  // The invitation page's address carries its token: no page sends its address anywhere.
  referrerPolicy: { policy: 'no-referrer' },
  xFrameOptions: { action: 'deny' },
  // Set per answer, and only on https: over plain http (the offline app on loopback) it means nothing.
  strictTransportSecurity: false,
};

export type HeaderList = ReadonlyArray<readonly [name: string, value: string]>;

/** The headers helmet sets for our options, as it would set them on an answer. */
export function securityHeaders(): HeaderList {
  const headers: [string, string][] = [];
  const recorder = {
    setHeader: (name: string, value: string | number | readonly string[]) => {
      headers.push([name.toLowerCase(), String(value)]);
    },
    // Express's X-Powered-By: Fastify never sets it.
    removeHeader: () => undefined,
  } as unknown as ServerResponse;
  helmet(HELMET_OPTIONS)({} as IncomingMessage, recorder, (error?: unknown) => {
    if (error) throw error;
  });
  return headers;
}

export function registerSecurityHeaders(app: FastifyInstance): void {
  const headers = securityHeaders();
  // On the raw response, so that an answer written by hand (a server-sent stream) carries them too;
  // a route that sets its own (the offline checkout page's narrower policy) replaces them.
  app.addHook('onRequest', (request, reply, done) => {
    for (const [name, value] of headers) reply.raw.setHeader(name, value);
    if (request.protocol === 'https') reply.raw.setHeader('strict-transport-security', HSTS);
    done();
  });
}
