import { myEvents } from '../../../shared/api/exh-events.ts';
import type { ExhEventsResponse } from '../../../shared/schemas/exh-events.ts';
import { call } from '../../lib/http.ts';
import type { Prefetched } from '../../lib/prefetch.ts';
import { useLoaded, type Loaded } from './loaded.ts';

/*
 * The exhibitor's events, apart from ./data.ts: "Mis eventos" then loads neither the nomination
 * screen's endpoints nor their schemas, which Zod builds as their module loads (on a phone, a long
 * task of its own: Lighthouse's total blocking time).
 */

export function useExhEvents(prefetched?: Prefetched): Loaded<ExhEventsResponse> {
  const { data, error, isPending } = useLoaded(
    (started) => call(myEvents, {}, started),
    'events',
    prefetched,
  );
  return { data, error, isPending };
}
