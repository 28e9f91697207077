import type { Route } from '../../http/route.ts';
import { defineRoute } from '../../http/route.ts';
import { loadLogo } from './logo.ts';

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
];
