import ForwardToInboxIcon from '@mui/icons-material/ForwardToInbox';
import { Button } from '@mui/material';
import { useState } from 'react';
import {
  pendingInvitationsOutcome,
  pendingInvitationsQuestion,
} from '../../../shared/calendar-texts.ts';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { useToast } from '../../components/Toasts.tsx';
import { errorMessage } from '../../lib/api.ts';
import { usePendingInvitations, useSendPendingInvitations } from './queries.ts';

/**
 * "Enviar invitaciones pendientes": shown while some exhibitors of the event were added without an
 * invitation (unchecked at import or when duplicating); asks before inviting them all at once.
 */
export function PendingInvitationsAction({ eventId }: { eventId: string }) {
  const toast = useToast();
  const pending = usePendingInvitations(eventId);
  const send = useSendPendingInvitations();
  const [asking, setAsking] = useState(false);
  const count = pending.data?.pending ?? 0;
  if (count === 0 && !asking) return null;

  async function confirm() {
    try {
      const outcome = await send.mutateAsync({ params: { eventId } });
      toast(pendingInvitationsOutcome(outcome.sent, outcome.limited), {
        severity: outcome.limited > 0 ? 'warning' : 'success',
      });
    } catch (caught) {
      toast(errorMessage(caught), { severity: 'error', durationMs: 3000 });
    } finally {
      setAsking(false);
    }
  }

  return (
    <>
      <Button variant="outlined" startIcon={<ForwardToInboxIcon />} onClick={() => setAsking(true)}>
        Enviar invitaciones pendientes
      </Button>
      <ConfirmDialog
        open={asking}
        title="Enviar invitaciones"
        text={pendingInvitationsQuestion(count)}
        confirmLabel="Enviar"
        destructive={false}
        busy={send.isPending}
        onConfirm={() => void confirm()}
        onClose={() => setAsking(false)}
      />
    </>
  );
}
