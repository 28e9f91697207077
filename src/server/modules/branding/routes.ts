import { z } from 'zod';
import { MSG } from '../../../shared/messages.ts';
import type { Route } from '../../http/route.ts';
import { defineRoute } from '../../http/route.ts';
import { AppError, badRequest } from '../../lib/errors.ts';
import { loadLogo } from './logo.ts';
import { isPng, prepareLogo, replaceLogo } from './service.ts';

export const brandingRoutes: Route[] = [
  defineRoute({
    method: 'GET',
    url: '/api/logo',
    access: 'public',
    summary: 'Logo del programa (PNG), con validadores de caché',
    handler: async ({ deps, request, reply }) => {
      const logo = await loadLogo(deps.db);
      reply.header('etag', logo.etag).header('cache-control', 'no-cache');
      if (request.headers['if-none-match'] === logo.etag) return reply.status(304).send();
      return reply.type('image/png').send(Buffer.from(logo.png));
    },
  }),
  defineRoute({
    method: 'POST',
    url: '/api/logo',
    access: 'admin',
    summary:
      'Reemplazar el logo: multipart con un archivo PNG (comprobado por contenido) de hasta 2 MB',
    multipart: true,
    response: z.object({ etag: z.string() }),
    handler: async ({ deps, user, request }) => {
      const noFile = () => badRequest(MSG.noLogoFile, { logo: MSG.noLogoFile });
      if (!request.isMultipart()) throw noFile();
      let bytes: Buffer;
      try {
        const file = await request.file();
        if (!file) throw noFile();
        // Throws FST_REQ_FILE_TOO_LARGE (413) past the size limit registered in app.ts.
        bytes = await file.toBuffer();
      } catch (error) {
        // The framework's own limits keep their answers; a body the parser cannot read (cut
        // short, bad part headers, no closing boundary) is the sender's fault, not ours.
        if (
          error instanceof AppError ||
          String((error as { code?: unknown }).code).startsWith('FST_')
        ) {
          throw error;
        }
        throw badRequest(MSG.invalidUpload, { logo: MSG.invalidUpload });
      }
      if (bytes.length === 0) throw noFile();
      if (!isPng(bytes)) throw badRequest(MSG.logoNotPng, { logo: MSG.logoNotPng });
      return replaceLogo(deps, user, await prepareLogo(bytes));
    },
  }),
];
