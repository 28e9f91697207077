import { Alert, CircularProgress, DialogContentText } from '@mui/material';
import { useState } from 'react';
import { reminderPlanText, type ReminderAudience } from '../../../shared/schemas/participation.ts';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { useToast } from '../../components/Toasts.tsx';
import { errorMessage } from '../../lib/api.ts';
import { useReminderPlan, useSendReminder } from './queries.ts';

/** The toast after sending: how many exhibitors the reminder went to. */
export const reminderSentText = (sent: number) =>
  sent === 1
    ? 'Se envió el recordatorio a 1 expositor.'
    : `Se envió el recordatorio a ${sent} expositores.`;

/**
 * "Enviar recordatorio": says, before anything is sent, how many exhibitors of the audience (without
 * votes, or incomplete) get it and how many are skipped for having been reminded in the last 12 hours.
 */
export function ReminderDialog({
  eventId,
  audience,
  onClose,
}: {
  eventId: string;
  audience: ReminderAudience;
  onClose(): void;
}) {
  const toast = useToast();
  const plan = useReminderPlan(eventId, audience, true);
  const send = useSendReminder();
  const [error, setError] = useState<string | null>(null);

  async function confirm() {
    setError(null);
    try {
      const done = await send.mutateAsync({ params: { eventId }, query: { to: audience } });
      toast(reminderSentText(done.recipients));
      onClose();
    } catch (caught) {
      setError(errorMessage(caught));
    }
  }

  return (
    <ConfirmDialog
      open
      title="Enviar recordatorio"
      text={
        plan.isPending ? (
          <CircularProgress size={24} aria-label="Cargando" />
        ) : plan.isError ? (
          <Alert severity="error" role="alert">
            {errorMessage(plan.error)}
          </Alert>
        ) : (
          <DialogContentText>{reminderPlanText(plan.data)}</DialogContentText>
        )
      }
      confirmLabel="Enviar"
      destructive={false}
      busy={send.isPending}
      error={error}
      confirmDisabled={!plan.data || plan.data.recipients === 0}
      onConfirm={() => void confirm()}
      onClose={onClose}
    />
  );
}
