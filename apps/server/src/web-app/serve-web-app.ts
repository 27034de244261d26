// Serves the built single-page app on the API's port: index.html and Vite's hashed assets from
// memory (web-files.ts), the few other files of the build (favicon, the landing page's demo) from
// disk as they are, and index.html for any other non-API path so that deep links and reloads
// work. Unknown API paths stay JSON 404s.
import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { ApiErrorBody } from '@ownvoice/shared';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { loadWebFiles, matchesEtag, type WebFile } from './web-files.js';

function send(request: FastifyRequest, reply: FastifyReply, file: WebFile) {
  reply.header('etag', file.etag).header('cache-control', file.cacheControl);
  if (matchesEtag(request.headers['if-none-match'], file.etag)) return reply.status(304).send();
  return reply.header('content-type', file.contentType).send(file.body);
}

export async function serveWebApp(app: FastifyInstance, webDir: string | undefined): Promise<void> {
  const files = webDir !== undefined && existsSync(path.join(webDir, 'index.html')) ? loadWebFiles(webDir) : undefined;
  if (files && webDir) {
    app.get('/', (request, reply) => send(request, reply, files.index));
    app.get('/index.html', (request, reply) => send(request, reply, files.index));
    app.get('/assets/*', async (request, reply) => {
      const file = await files.asset((request.params as { '*': string })['*']);
      return file ? send(request, reply, file) : reply.callNotFound();
    });
    await app.register(fastifyStatic, {
      root: webDir,
      wildcard: false,
      index: false,
      globIgnore: [...files.servedFromMemory],
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const isApi = request.url === '/api' || request.url.startsWith('/api/');
    if (!isApi && files && (request.method === 'GET' || request.method === 'HEAD')) {
      return send(request, reply, files.index);
    }
    const body: ApiErrorBody = isApi
      ? { msg: `No API route ${request.method} ${request.url.split('?')[0]}`, code: 'ROUTE_NOT_FOUND' }
      : { msg: 'The web app is not built. Run `npm run build`, then reload.', code: 'ROUTE_NOT_FOUND' };
    return reply.status(404).send(body);
  });
}
