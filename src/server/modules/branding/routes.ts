import * as api from '../../../shared/api/branding.ts';
import { LOGO_MAX_BYTES } from '../../../shared/constants.ts';
import { MSG } from '../../../shared/messages.ts';
import { OK } from '../../../shared/schemas/common.ts';
import { implement, type Route } from '../../http/route.ts';
import { readUploadedFile } from '../../http/upload.ts';
import { badRequest } from '../../lib/errors.ts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  eventLogoForAdmin,
  eventLogoForExhibitor,
  removeEventLogo,
  replaceEventLogo,
} from './event-logo.ts';
import { loadLogo, type Logo } from './logo.ts';
import { isPng, prepareLogo, replaceLogo } from './service.ts';

/**
 * A logo with its validator: revalidated on every use, 304 when unchanged. An event's logo is
 * answered to signed-in users only: no shared cache keeps it (`private`).
 */
function sendLogo(request: FastifyRequest, reply: FastifyReply, logo: Logo, shared = true) {
  reply
    .header('etag', logo.etag)
    .header('cache-control', shared ? 'no-cache' : 'private, no-cache');
  if (request.headers['if-none-match'] === logo.etag) return reply.status(304).send();
  return reply.type('image/png').send(Buffer.from(logo.png));
}

/** The uploaded PNG, checked by content and re-encoded; the same rules for every logo. */
async function uploadedLogo(request: FastifyRequest): Promise<Buffer> {
  const { bytes } = await readUploadedFile(request, {
    field: 'logo',
    maxBytes: LOGO_MAX_BYTES,
    noFile: MSG.noLogoFile,
    tooLarge: MSG.fileTooLarge,
  });
  if (bytes.length === 0) throw badRequest(MSG.noLogoFile, 'logo');
  if (!isPng(bytes)) throw badRequest(MSG.logoNotPng, 'logo');
  return prepareLogo(bytes);
}

export const brandingRoutes: Route[] = [
  implement(api.getLogo, async ({ deps, request, reply }) =>
    sendLogo(request, reply, await loadLogo(deps.db)),
  ),
  implement(api.replaceLogo, async ({ deps, user, request }) =>
    replaceLogo(deps, { admin: user, png: await uploadedLogo(request) }),
  ),
  implement(api.getEventLogo, async ({ deps, params, request, reply }) =>
    sendLogo(request, reply, await eventLogoForAdmin(deps.db, params), false),
  ),
  implement(api.replaceEventLogo, async ({ deps, user, params, request }) =>
    replaceEventLogo(deps, { admin: user, ...params, png: await uploadedLogo(request) }),
  ),
  implement(api.removeEventLogo, async ({ deps, user, params }) => {
    await removeEventLogo(deps, { admin: user, ...params });
    return OK;
  }),
  implement(api.myEventLogo, async ({ deps, user, params, request, reply }) =>
    sendLogo(
      request,
      reply,
      await eventLogoForExhibitor(deps.db, { ...params, exhibitorId: user.exhibitorId }),
      false,
    ),
  ),
];
