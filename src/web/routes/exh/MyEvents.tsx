import { Link, Navigate, useLoaderData, useLocation } from 'react-router';
import { MSG } from '../../../shared/messages.ts';
import { Loading } from '../../components/RequireRole.tsx';
import { useExhEvents } from '../../features/nominations/my-events.ts';
import { errorMessage } from '../../lib/http.ts';
import { cameFromSignIn } from '../../lib/return-to.ts';
import type { myEventsLoader } from './loaders.ts';

/**
 * The exhibitor's events, each a large link to its nomination screen. Right after signing in, an
 * exhibitor with exactly one event goes straight to it; opened any other way this list shows.
 */
export default function MyEvents() {
  const { data, error, isPending } = useExhEvents(useLoaderData<typeof myEventsLoader>().events);
  const afterSignIn = cameFromSignIn(useLocation().state);
  const [onlyEvent] = data?.events.length === 1 ? data.events : [];
  if (afterSignIn && onlyEvent) return <Navigate to={`/exh/event/${onlyEvent.id}`} replace />;
  return (
    <div className="exh-stack">
      <h1 className="exh-h1">Mis eventos</h1>
      {isPending ? (
        <Loading />
      ) : !data ? (
        <p role="alert" className="exh-error">
          {errorMessage(error)}
        </p>
      ) : data.events.length === 0 ? (
        <p className="exh-secondary">{MSG.noEvents}</p>
      ) : (
        <ul className="exh-events">
          {data.events.map((event) => (
            <li key={event.id}>
              <Link className="exh-event-link" to={`/exh/event/${event.id}`}>
                {event.name}
              </Link>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
