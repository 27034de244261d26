// The offline app's packages, for the /download page: which this server has (built with
// `npm run package:deb` into the downloads folder), and the files themselves. Only names of the
// package pattern are ever opened, so no request can reach another file.
import { createReadStream } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { type DownloadsResponse, downloadsResponseSchema } from '@ownvoice/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errors } from '../../errors.js';

/** ownvoice_<Debian version>_<Debian architecture>.deb, as scripts/package-deb.sh names it. */
const DEB_NAME = /^ownvoice_([0-9][A-Za-z0-9.+~]*(?:-[A-Za-z0-9.+~]+)?)_([a-z0-9]+)\.deb$/;

async function regularFile(file: string): Promise<{ size: number; mtimeMs: number } | undefined> {
  const info = await stat(file).catch(() => undefined);
  return info?.isFile() ? info : undefined;
}

async function listBuilds(dir: string): Promise<DownloadsResponse['builds']> {
  const names = await readdir(dir).catch(() => [] as string[]);
  const builds = await Promise.all(
    names.map(async (file) => {
      const match = DEB_NAME.exec(file);
      const info = match ? await regularFile(path.join(dir, file)) : undefined;
      if (!match?.[1] || !match[2] || !info) return [];
      const build = {
        file,
        format: 'deb' as const,
        version: match[1],
        arch: match[2],
        sizeBytes: info.size,
        url: `/api/public/downloads/${file}`,
      };
      return [{ build, builtAt: info.mtimeMs }];
    }),
  );
  // The newest build first.
  return builds
    .flat()
    .sort((a, b) => b.builtAt - a.builtAt)
    .map(({ build }) => build);
}

export async function downloadsRoutes(app: FastifyInstance, { downloadsDir }: { downloadsDir: string }): Promise<void> {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  typed.get('/public/downloads', { schema: { response: { 200: downloadsResponseSchema } } }, async () => ({
    builds: await listBuilds(downloadsDir),
  }));

  typed.get(
    '/public/downloads/:file',
    { schema: { params: z.object({ file: z.string().max(200) }) } },
    async (request, reply) => {
      const { file } = request.params;
      const full = path.join(downloadsDir, file);
      const info = DEB_NAME.test(file) ? await regularFile(full) : undefined;
      if (!info) throw errors.notFound('Download');
      return reply
        .type('application/vnd.debian.binary-package')
        .header('content-length', info.size)
        .header('content-disposition', `attachment; filename="${file}"`)
        .header('cache-control', 'no-cache')
        .send(createReadStream(full));
    },
  );
}
