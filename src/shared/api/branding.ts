import { z } from 'zod';
import { defineEndpoint, file, json } from './define.ts';

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

export const brandingEndpoints = [getLogo, replaceLogo] as const;
