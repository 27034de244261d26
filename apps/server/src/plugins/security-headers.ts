// The headers a careful team sets on every answer, the web app's and the API's (helmet). The web
// app keeps its session token where page scripts can read it, so the Content-Security-Policy is
// what stands between one injected script and every token: scripts only from this origin, no
// inline script and no eval (Vite emits none; the app tells zod not to compile), nothing may frame
// the app, and nothing is sent or posted anywhere but here. Styles may be inline: Mantine writes
// style attributes and one <style> of CSS variables, which carry no script.
import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

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

export async function registerSecurityHeaders(app: FastifyInstance): Promise<void> {
  await app.register(helmet, {
    contentSecurityPolicy: { useDefaults: false, directives: CONTENT_SECURITY_POLICY },
    // The invitation page's address carries its token: no page sends its address anywhere.
    referrerPolicy: { policy: 'no-referrer' },
    xFrameOptions: { action: 'deny' },
    // Set below, and only on https: over plain http (the offline app on loopback) it means nothing.
    strictTransportSecurity: false,
  });
  app.addHook('onSend', async (request, reply) => {
    if (request.protocol === 'https') reply.header('strict-transport-security', HSTS);
  });
}
