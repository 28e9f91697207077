import * as api from '../../../shared/api/branding.ts';
import { LOGO_MAX_BYTES } from '../../../shared/constants.ts';
import { MSG } from '../../../shared/messages.ts';
import { implement, type Route } from '../../http/route.ts';
import { readUploadedFile } from '../../http/upload.ts';
import { badRequest } from '../../lib/errors.ts';
import { loadLogo } from './logo.ts';
import { isPng, prepareLogo, replaceLogo } from './service.ts';

export const brandingRoutes: Route[] = [
  implement(api.getLogo, async ({ deps, request, reply }) => {
    const logo = await loadLogo(deps.db);
    reply.header('etag', logo.etag).header('cache-control', 'no-cache');
    if (request.headers['if-none-match'] === logo.etag) return reply.status(304).send();
    return reply.type('image/png').send(Buffer.from(logo.png));
  }),
  implement(api.replaceLogo, async ({ deps, user, request }) => {
    const { bytes } = await readUploadedFile(request, {
      field: 'logo',
      maxBytes: LOGO_MAX_BYTES,
      noFile: MSG.noLogoFile,
      tooLarge: MSG.fileTooLarge,
    });
    if (bytes.length === 0) throw badRequest(MSG.noLogoFile, 'logo');
    if (!isPng(bytes)) throw badRequest(MSG.logoNotPng, 'logo');
    return replaceLogo(deps, user, await prepareLogo(bytes));
  }),
];
