import { z } from 'zod';
// Zod's configuration (no eval probe in the browser, whose CSP would report it; Spanish
// messages) must be in place before this module builds its schemas, whichever module loads first.
import './common.ts';

/*
 * The exhibitor's events ("Mis eventos"), apart from the nomination screen's schemas
 * (./nominations.ts): Zod builds a module's schemas as it loads, and on a phone that work for
 * schemas the screen does not use was a long task of its own (Lighthouse's total blocking time).
 */

export const exhEventSummary = z.object({
  id: z.string(),
  name: z.string(),
  eventDate: z.string(),
  voteDeadline: z.string(),
});
export type ExhEventSummary = z.output<typeof exhEventSummary>;

export const exhEventsResponse = z.object({ events: z.array(exhEventSummary) });
export type ExhEventsResponse = z.output<typeof exhEventsResponse>;
