import type { LoaderFunctionArgs } from 'react-router';
import { prefetch } from '../../lib/prefetch.ts';

/*
 * The exhibitor's screens start their requests from the router, as soon as the address matches,
 * in parallel with loading their code: the answer is then there when the screen draws, instead of
 * being asked for only after (an exhibitor on a phone waits for it; decision 0009, Update). These
 * are in the first load, so they name the URLs without the contract (which loads with the
 * screens); `call` uses an answer only for the URL the contract gives, and a unit test holds the
 * two together. The screens use the answer on their first draw only: a later reload (after a
 * refused save) asks again.
 */

export const exhLayoutLoader = () => ({ session: prefetch('/api/session') });

export const myEventsLoader = () => ({ events: prefetch('/api/exh/events') });

export const nominationLoader = ({ params }: LoaderFunctionArgs) => ({
  event: prefetch(`/api/exh/events/${encodeURIComponent(params.eventId ?? '')}`),
});

/**
 * The requests are the screens' first draw's: switching tabs (the address's query) must not start
 * them again, as React Router would by default, since the screen on display would not read them.
 */
export const onArrivalOnly = () => false;
