import { useEffect, useState } from 'react';
import { Navigate, Outlet, useLoaderData, useLocation, useMatch, useNavigate } from 'react-router';
import { getSession, signOut as signOutEndpoint } from '../../../shared/api/session.ts';
import type { CurrentUser } from '../../../shared/schemas/session.ts';
import { Icon } from '../../components/plain/Icon.tsx';
import { Loading } from '../../components/RequireRole.tsx';
import { currentUserFromCookie } from '../../lib/current-user.ts';
import { call } from '../../lib/http.ts';
import { signInReturningTo } from '../../lib/return-to.ts';
import { refreshSession } from '../../shell.tsx';
import type { exhLayoutLoader } from './loaders.ts';

/**
 * The exhibitor's screens: only exhibitors (anyone else goes to "/", which sends them where they
 * belong), under a top bar with what an exhibitor has there: the logo, "Descargar Instructivo"
 * and "Salir". Plain elements and the shell's stylesheet, like the screens below it: nothing of
 * MUI or TanStack Query loads for an exhibitor (decision 0009).
 */
export default function ExhLayout() {
  // The display cookie is the first guess, so the screen's request starts at once; the session's
  // answer decides (a deep link whose display cookie was lost waits for it).
  const [user, setUser] = useState<CurrentUser | null | undefined>(
    () => currentUserFromCookie() ?? undefined,
  );
  // Asked by the route's loader while this code loaded, with the screen's own request.
  const { session } = useLoaderData<typeof exhLayoutLoader>();
  const location = useLocation();
  useEffect(() => {
    let current = true;
    call(getSession, {}, session).then(
      // The guess was right: nothing to draw again.
      ({ user: answer }) =>
        current && setUser((guess) => (guess && guess.role === answer?.role ? guess : answer)),
      // Unanswered (network lost): the guess stands; without one, nobody is signed in.
      () => current && setUser((guess) => guess ?? null),
    );
    return () => {
      current = false;
    };
  }, [session]);
  if (user === undefined) return <Loading />;
  // Signed out on a page of an event (a mail's link): sign in, then back to it. `/exh` itself
  // and anyone signed in with another role go to "/", which sends them where they belong.
  if (user === null && location.pathname.startsWith('/exh/')) {
    return <Navigate to={signInReturningTo(location.pathname + location.search)} replace />;
  }
  if (user?.role !== 'exh') return <Navigate to="/" replace />;
  return (
    <div className="exh-app">
      <TopBar />
      <main className="exh-main">
        <Outlet />
      </main>
    </div>
  );
}

function TopBar() {
  const navigate = useNavigate();
  // An event's screen shows that event's logo ("Logo del evento", or the programme's when it has
  // none); the list of events shows the programme's.
  const eventId = useMatch('/exh/event/:eventId')?.params.eventId;
  async function signOut() {
    await call(signOutEndpoint, {}).catch(() => undefined);
    // The signed-in screens' cache, if one of them loaded it, forgets this visitor too.
    await refreshSession();
    await navigate('/');
  }
  return (
    <header className="exh-bar">
      <img
        className="exh-bar-logo"
        src={eventId ? `/api/exh/events/${encodeURIComponent(eventId)}/logo` : '/api/logo'}
        alt="Logo"
      />
      <span className="exh-bar-space" />
      {/* On a phone only the icon shows; the accessible name stays the same. */}
      <a className="exh-bar-manual" href="/api/manual" download aria-label="Descargar Instructivo">
        <span className="plain-phone-only">
          <Icon name="download" size={20} />
        </span>
        <span className="plain-not-phone">Descargar Instructivo</span>
      </a>
      <button
        type="button"
        className="plain-button plain-button-outlined plain-button-small"
        onClick={() => void signOut()}
      >
        Salir
      </button>
    </header>
  );
}
