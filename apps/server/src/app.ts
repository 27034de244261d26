// Builds the HTTP application: the API under /api and, when built, the web app on the same
// port. Everything it needs is passed in, so tests build it over their own database and clock.
import cookie from '@fastify/cookie';
import multipart from '@fastify/multipart';
import Fastify, { type FastifyInstance, type FastifySchema, type FastifyServerOptions } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { type Clock, systemClock } from './clock.js';
import type { Config } from './config.js';
import type { DatabaseHandle } from './db/client.js';
import { BaseModelService } from './engine/base-model.service.js';
import { createPlatform, type Platform } from './platform.js';
import { registerAuthRateLimit } from './plugins/auth-rate-limit.js';
import { registerAuthentication } from './plugins/authenticate.js';
import { registerCsrfCheck } from './plugins/csrf.js';
import { clientErrorHandler, frameworkErrorHandler, registerErrorHandling } from './plugins/error-handler.js';
import { connectionsCheckingInterval, registerHttpLimits } from './plugins/http-limits.js';
import { nameRequest, registerRequestId, requestIdOf } from './plugins/request-id.js';
import { responseSerializerCompiler } from './plugins/response-serializer.js';
import { registerSecurityHeaders } from './plugins/security-headers.js';
import { adminRoutes } from './routes/admin/admin.routes.js';
import { apiKeysRoutes } from './routes/api-keys/api-keys.routes.js';
import { authRoutes } from './routes/auth/auth.routes.js';
import { emailRoutes } from './routes/auth/email.routes.js';
import { passwordRoutes } from './routes/auth/password.routes.js';
import { contentRoutes } from './routes/content/content.routes.js';
import { csrfRoutes } from './routes/csrf/csrf.routes.js';
import { docsRoutes } from './routes/docs/docs.routes.js';
import { registerOpenApi } from './routes/docs/openapi.js';
import { healthRoutes } from './routes/health/health.routes.js';
import { invitationsRoutes } from './routes/invitations/invitations.routes.js';
import { convertRoutes } from './routes/loras/convert.routes.js';
import { lorasRoutes } from './routes/loras/loras.routes.js';
import { voicePackageRoutes } from './routes/loras/voice-package.routes.js';
import { MULTIPART_OPTIONS } from './routes/loras/voice-upload.js';
import { offlineCheckoutRoutes } from './routes/offline-checkout/offline-checkout.routes.js';
import { plansRoutes } from './routes/plans/plans.routes.js';
import { downloadsRoutes } from './routes/public/downloads.routes.js';
import { engineRoutes } from './routes/public/engine.routes.js';
import { publicRoutes } from './routes/public/public.routes.js';
import { stripeRoutes } from './routes/stripe/stripe.routes.js';
import { webhookRoutes } from './routes/stripe/webhook.routes.js';
import { sendOpenAiFrameworkError } from './routes/v1/openai-errors.js';
import { v1Routes } from './routes/v1/v1.routes.js';
import { webhooksRoutes } from './routes/webhooks/webhooks.routes.js';
import { HealthService } from './services/health.service.js';
import type { ArtifactStorage } from './storage/artifact-storage.js';
import { VERSION } from './version.js';
import { serveWebApp } from './web-app/serve-web-app.js';

declare module 'fastify' {
  interface FastifyInstance {
    routeList: readonly RouteEntry[];
    /** The parts behind the routes, for main.ts (workers, metering) and tests. */
    platform: Platform;
  }
}

/** Where OpenAI's protocol is served (routes/v1). */
const V1_PREFIX = '/v1';
/** Each socket's buffer, both ways (Node 20's default; see the server's `http` options below). */
const SOCKET_HIGH_WATER_MARK = 16 * 1024;
const isV1 = (url: string) => url === V1_PREFIX || url.startsWith(`${V1_PREFIX}/`) || url.startsWith(`${V1_PREFIX}?`);

export interface RouteEntry {
  method: string;
  url: string;
  schema?: FastifySchema | undefined;
  /** False for the few routes that take no CSRF token (plugins/csrf.ts). */
  csrf: boolean;
}

export interface AppDeps {
  config: Config;
  database: DatabaseHandle;
  clock?: Clock;
  logger?: FastifyServerOptions['logger'];
  /** The base model; main.ts starts it after listening, tests may leave it starting. */
  baseModel?: BaseModelService;
  /** Where Voice files live; the artifact folder of the configuration by default. */
  artifactStorage?: ArtifactStorage;
  /** Encode every response with zod too and refuse any difference (the tests; plugins/response-serializer.ts). */
  checkResponses?: boolean;
}

export async function buildApp({
  config,
  database,
  clock = systemClock,
  logger,
  baseModel = new BaseModelService(),
  artifactStorage,
  checkResponses = false,
}: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    logger: logger ?? { level: config.logLevel },
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
    // Ids in logs let a user's report be matched to the request: each answer names its own
    // (`x-request-id`, plugins/request-id.ts), one the caller sent if it is sane.
    genReqId: requestIdOf,
    // The router's own refusals (a malformed address), in /v1's shape under /v1.
    frameworkErrors: (error, request, reply) => {
      nameRequest(reply);
      if (isV1(request.url)) sendOpenAiFrameworkError(error, request, reply);
      else frameworkErrorHandler(error, request, reply);
    },
    clientErrorHandler,
    // How long a client may take to send a request (the response is not bounded: conversions
    // stream for minutes); plugins/http-limits.ts cuts a body that stops arriving.
    requestTimeout: config.http.requestTimeoutMs,
    http: {
      connectionsCheckingInterval: connectionsCheckingInterval(config.http),
      // A stream pauses its generation once this much waits for a reader (routes/event-stream.ts):
      // 16 KiB on every Node line (22 raised streams' default to 64 KiB, which let a reader who
      // stopped reading keep four times as much generation running).
      highWaterMark: SOCKET_HIGH_WATER_MARK,
    },
  });
  app.server.headersTimeout = Math.min(config.http.headersTimeoutMs, config.http.requestTimeoutMs);
  // Every route, as registered, with its schema: tests walk this list to probe each one with bad
  // input generated from the route's own zod schemas.
  const routes: RouteEntry[] = [];
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) {
      routes.push({ method, url: route.url, schema: route.schema, csrf: route.config?.csrf !== false });
    }
  });
  app.decorate('routeList', routes);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(responseSerializerCompiler({ check: checkResponses }));
  registerRequestId(app);
  // Where no plans are sold, running out of usage says who can raise the limits instead.
  app.decorate('sellsUsage', config.billing.provider !== 'none');
  registerErrorHandling(app);
  registerHttpLimits(app, config);
  registerSecurityHeaders(app);
  await app.register(cookie);
  // Before the routes: the open API document records them as they are added (routes/docs/).
  await registerOpenApi(app, { publicUrl: config.publicUrl });

  const platform = createPlatform({
    config,
    database,
    clock,
    baseModel,
    log: {
      info: (msg) => app.log.info(msg),
      warn: (msg) => app.log.warn(msg),
      error: (err, msg) => app.log.error({ err }, msg),
      // The inference process's records as objects at their own level, not JSON quoted in ours.
      fromChild: ({ level, msg, fields }) => app.log[level]({ inference: fields }, msg),
    },
    ...(artifactStorage ? { artifactStorage } : {}),
  });
  const { services } = platform;
  app.decorate('platform', platform);
  // Workers are stopped by their owner (main.ts, a test) before the app closes.
  app.addHook('onClose', () => platform.close());

  // The API for the pages and people's tools under /api, and OpenAI's protocol under /v1, share
  // who a token is and each API key's budget of requests a minute.
  await app.register(async (scope) => {
    registerAuthentication(scope, services.sessions, services.apiKeys);
    await registerAuthRateLimit(scope, config.authRateLimit, services.loginGuard);
    await scope.register(
      async (api) => {
        registerCsrfCheck(api);
        await healthRoutes(api, new HealthService(database, VERSION, () => platform.services.billing.health()));
        await csrfRoutes(api);
        await publicRoutes(api, services);
        await downloadsRoutes(api, { downloadsDir: config.downloadsDir });
        await engineRoutes(api, baseModel);
        await authRoutes(api, services);
        await passwordRoutes(api, services, { publicUrl: config.publicUrl });
        await emailRoutes(api, services);
        await apiKeysRoutes(api, services);
        await webhooksRoutes(api, services);
        // Uploads stream through voice-upload.ts with their own limits.
        await api.register(multipart, MULTIPART_OPTIONS);
        await lorasRoutes(api, services, { dataDir: config.dataDir });
        await voicePackageRoutes(api, services, { dataDir: config.dataDir });
        await convertRoutes(api, services);
        await contentRoutes(api, services, { dataDir: config.dataDir });
        await adminRoutes(api, services);
        await invitationsRoutes(api, services);
        await plansRoutes(api, services);
        await stripeRoutes(api, services);
        await webhookRoutes(api, services);
        await offlineCheckoutRoutes(api, services);
        await docsRoutes(api, { publicUrl: config.publicUrl });
      },
      { prefix: '/api' },
    );
    await scope.register((v1) => v1Routes(v1, services, { clock }), { prefix: V1_PREFIX });
  });

  await serveWebApp(app, config.webDir);
  return app;
}
