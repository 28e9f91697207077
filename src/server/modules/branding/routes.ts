import * as api from '../../../shared/api/branding.ts';
import { MSG } from '../../../shared/messages.ts';
import { implement, type Route } from '../../http/route.ts';
import { badRequest } from '../../lib/errors.ts';
import { loadLogo } from './logo.ts';
import { isPng, replaceLogo } from './service.ts';

export const brandingRoutes: Route[] = [
  implement(api.getLogo, async ({ deps, request, reply }) => {
    const logo = await loadLogo(deps.db);
    reply.header('etag', logo.etag).header('cache-control', 'no-cache');
    if (request.headers['if-none-match'] === logo.etag) return reply.status(304).send();
    return reply.type('image/png').send(Buffer.from(logo.png));
  }),
  implement(api.replaceLogo, async ({ deps, user, request }) => {
    const noFile = () => badRequest(MSG.noLogoFile, 'logo');
    if (!request.isMultipart()) throw noFile();
    const file = await request.file();
    if (!file) throw noFile();
    // Throws FST_REQ_FILE_TOO_LARGE (413) past the size limit registered in app.ts.
    const bytes = await file.toBuffer();
    if (bytes.length === 0) throw noFile();
    if (!isPng(bytes)) throw badRequest(MSG.logoNotPng, 'logo');
    return replaceLogo(deps, user, bytes);
  }),
];
