import { Link as RouterLink, useParams } from 'react-router';
import { MSG } from '../../../shared/messages.ts';
import { NominationPreview } from '../exh/NominationScreen.tsx';

/**
 * "Vista previa" (issue 31): the exhibitor's screen of this event as an invited exhibitor gets it,
 * in the exhibitor's own frame, for an administrator before inviting anyone (also for a draft).
 * Read-only: a save is refused on the spot, and no request that writes is ever made.
 */
export default function EventPreview() {
  const { eventId = '' } = useParams();
  return (
    <div className="exh-app">
      <header className="exh-bar">
        <img className="exh-bar-logo" src="/api/logo" alt="Logo" />
        <span className="exh-bar-space" />
        <RouterLink
          className="plain-button plain-button-outlined plain-button-small"
          to={`/admin/event/${eventId}`}
        >
          Volver al evento
        </RouterLink>
      </header>
      <main className="exh-main">
        <div className="plain-alert plain-alert-info" role="note">
          <div className="plain-alert-message">{MSG.previewNotice}</div>
        </div>
        <NominationPreview />
      </main>
    </div>
  );
}
