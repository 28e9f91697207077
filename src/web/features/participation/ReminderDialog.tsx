import {
  Alert,
  Button,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
} from '@mui/material';
import { useId, useState } from 'react';
import { reminderPlanText } from '../../../shared/schemas/participation.ts';
import { useToast } from '../../components/Toasts.tsx';
import { errorMessage } from '../../lib/api.ts';
import { useReminderPlan, useSendReminder } from './queries.ts';

/** The toast after sending: how many exhibitors the reminder went to. */
export const reminderSentText = (sent: number) =>
  sent === 1
    ? 'Se envió el recordatorio a 1 expositor.'
    : `Se envió el recordatorio a ${sent} expositores.`;

/**
 * "Enviar recordatorio": says, before anything is sent, how many exhibitors without votes get it
 * and how many are skipped for having been reminded in the last 12 hours.
 */
export function ReminderDialog({ eventId, onClose }: { eventId: string; onClose(): void }) {
  const titleId = useId();
  const toast = useToast();
  const plan = useReminderPlan(eventId, true);
  const send = useSendReminder();
  const [error, setError] = useState<string | null>(null);

  async function confirm() {
    setError(null);
    try {
      const done = await send.mutateAsync({ params: { eventId } });
      toast(reminderSentText(done.recipients));
      onClose();
    } catch (caught) {
      setError(errorMessage(caught));
    }
  }

  return (
    <Dialog
      open
      onClose={send.isPending ? undefined : onClose}
      aria-labelledby={titleId}
      maxWidth="xs"
      fullWidth
    >
      <DialogTitle id={titleId}>Enviar recordatorio</DialogTitle>
      <DialogContent>
        {plan.isPending ? (
          <CircularProgress size={24} aria-label="Cargando" />
        ) : plan.isError ? (
          <Alert severity="error" role="alert">
            {errorMessage(plan.error)}
          </Alert>
        ) : (
          <DialogContentText>{reminderPlanText(plan.data)}</DialogContentText>
        )}
        {error ? (
          <Alert severity="error" role="alert" sx={{ mt: 2 }}>
            {error}
          </Alert>
        ) : null}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={send.isPending}>
          Cancelar
        </Button>
        <Button
          variant="contained"
          disabled={send.isPending || !plan.data || plan.data.recipients === 0}
          onClick={() => void confirm()}
        >
          Enviar
        </Button>
      </DialogActions>
    </Dialog>
  );
}
