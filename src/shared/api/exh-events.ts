import { exhEventsResponse } from '../schemas/exh-events.ts';
import { defineEndpoint, json } from './define.ts';

/*
 * The exhibitor's events, apart from the nomination screen's endpoints (./nominations.ts, which
 * lists it with them): the "Mis eventos" screen loads this alone, without building their schemas.
 */

export const myEvents = defineEndpoint({
  method: 'GET',
  path: '/api/exh/events',
  access: 'exhibitor',
  summary: 'Eventos del expositor',
  response: json(exhEventsResponse),
  errors: [],
});
