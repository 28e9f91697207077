import { integrityParams, integrityResponse } from '../schemas/integrity.ts';
import { defineEndpoint, json } from './define.ts';

/** The "Integridad" tab (issue 28 item 3): signs of coordinated voting, for review. */
export const integrityAlerts = defineEndpoint({
  method: 'GET',
  path: '/api/events/:eventId/integrity',
  access: 'admin',
  summary:
    'Alertas de integridad por categoría: listas idénticas, mismo dispositivo y nominaciones a la propia empresa',
  params: integrityParams,
  response: json(integrityResponse),
  errors: ['not_found'],
});

export const integrityEndpoints = [integrityAlerts] as const;
