import { useRouteError } from 'react-router';
import { OFFLINE_MSG } from '../../shared/messages-offline.ts';
import { PlainButton } from './plain/Fields.tsx';

/** How Chromium, Firefox and Safari word the failure of `import()` to fetch a screen's code. */
const FAILED_IMPORT =
  /dynamically imported module|importing a module script failed|error loading dynamically imported module/i;

/**
 * What shows instead of a screen that failed: most often its code could not be fetched (a phone
 * without signal, or a tab opened before a new version replaced the files). Plain elements, in the
 * first screen's code, so it shows with no network at all. Trying again reloads the page, which
 * also brings a new version's files (their names change with each version).
 */
export function RouteError() {
  const error = useRouteError();
  const unreachable = error instanceof TypeError && FAILED_IMPORT.test(error.message);
  return (
    <main className="signin-page">
      <div className="signin-card signin-stack">
        <h1 className="signin-title">{OFFLINE_MSG.genericErrorDot}</h1>
        {unreachable ? <p className="route-error-hint">{OFFLINE_MSG.connectionLost}</p> : null}
        <PlainButton type="button" onClick={() => window.location.reload()}>
          Volver a intentar
        </PlainButton>
      </div>
    </main>
  );
}
