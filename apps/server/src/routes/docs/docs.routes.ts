// GET /api/docs/openapi.json: the open API document (openapi.ts); GET /api/docs: the
// reference page rendered from it on the server (page.ts): plain HTML and CSS, no script, nothing
// fetched from elsewhere, so it reads the same in the offline app. Both open to anyone: they
// describe the public API, nothing of anyone's account.
import type { FastifyInstance } from 'fastify';
import { type OpenApiDocument, PAGE_CONTENT_SECURITY_POLICY, renderReferencePage } from './page.js';

export async function docsRoutes(
  app: FastifyInstance,
  { publicUrl }: { publicUrl?: string | undefined },
): Promise<void> {
  // Built once, after the app is ready (every route registered).
  let json: string | undefined;
  const documentJson = (): string => {
    json ??= JSON.stringify(app.swagger());
    return json;
  };

  app.get('/docs/openapi.json', async (_request, reply) =>
    reply.type('application/json; charset=utf-8').header('cache-control', 'no-cache').send(documentJson()),
  );

  app.get('/docs', async (request, reply) => {
    // The examples' server: the configured public address, else the one this page was asked on.
    const baseUrl = (publicUrl ?? `${request.protocol}://${request.host}`).replace(/\/+$/, '');
    const document = JSON.parse(documentJson()) as OpenApiDocument;
    return reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-cache')
      .header('content-security-policy', PAGE_CONTENT_SECURITY_POLICY)
      .send(renderReferencePage(document, { baseUrl }));
  });
}
