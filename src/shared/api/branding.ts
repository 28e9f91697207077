import { z } from 'zod';
import { idParam, okResponse } from '../schemas/common.ts';
import { defineEndpoint, file, json } from './define.ts';

const eventParams = z.object({ eventId: idParam });

export const getLogo = defineEndpoint({
  method: 'GET',
  path: '/api/logo',
  access: 'public',
  summary: 'Logo del programa (PNG), con validadores de caché',
  response: file('image/png'),
  errors: [],
});

export const replaceLogo = defineEndpoint({
  method: 'POST',
  path: '/api/logo',
  access: 'admin',
  summary:
    'Reemplazar el logo: multipart con un archivo PNG (comprobado por contenido) de hasta 2 MB',
  upload: { field: 'logo', mediaType: 'image/png' },
  response: json(z.object({ etag: z.string() })),
  errors: ['file_too_large', 'body_too_large', 'unsupported_media_type'],
});

export const getEventLogo = defineEndpoint({
  method: 'GET',
  path: '/api/events/:eventId/logo',
  access: 'admin',
  summary: 'Logo del evento (PNG): el propio del evento o, si no tiene, el del programa',
  params: eventParams,
  response: file('image/png'),
  errors: ['not_found'],
});

export const replaceEventLogo = defineEndpoint({
  method: 'POST',
  path: '/api/events/:eventId/logo',
  access: 'admin',
  summary:
    'Logo propio de un evento ("Logo del evento"): multipart con un PNG de hasta 2 MB, las mismas reglas que el logo del programa',
  params: eventParams,
  upload: { field: 'logo', mediaType: 'image/png' },
  response: json(z.object({ etag: z.string() })),
  errors: ['not_found', 'file_too_large'],
});

export const removeEventLogo = defineEndpoint({
  method: 'DELETE',
  path: '/api/events/:eventId/logo',
  access: 'admin',
  summary: 'Quitar el logo propio de un evento: vuelve a mostrarse el del programa',
  params: eventParams,
  response: json(okResponse),
  errors: ['not_found'],
});

export const myEventLogo = defineEndpoint({
  method: 'GET',
  path: '/api/exh/events/:eventId/logo',
  access: 'exhibitor',
  summary: 'Logo de un evento del expositor (PNG): el propio del evento o el del programa',
  params: eventParams,
  response: file('image/png'),
  errors: ['not_found'],
});

export const brandingEndpoints = [
  getLogo,
  replaceLogo,
  getEventLogo,
  replaceEventLogo,
  removeEventLogo,
  myEventLogo,
] as const;
