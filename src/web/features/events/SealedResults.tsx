import { Button, Stack, Typography } from '@mui/material';
import { useState } from 'react';
import { MSG } from '../../../shared/messages.ts';
import { viewResultsEarlyInput } from '../../../shared/schemas/events.ts';
import { FormDialog } from '../../components/FormDialog.tsx';
import { TextInput } from '../../components/TextInput.tsx';
import { errorMessage } from '../../lib/api.ts';
import { useViewResultsEarly } from './queries.ts';

/**
 * A category tab of an event whose results are sealed until the close (docs/decisions/0036): no
 * figure, only when they will show and "Ver resultados ahora", which asks why first.
 */
export function SealedResults({ eventId }: { eventId: string }) {
  const [asking, setAsking] = useState(false);
  return (
    <Stack spacing={2} sx={{ mt: 2, alignItems: 'flex-start' }}>
      <Typography>{MSG.resultsSealedNotice}</Typography>
      <Button variant="outlined" onClick={() => setAsking(true)}>
        Ver resultados ahora
      </Button>
      {asking ? <ViewEarlyDialog eventId={eventId} onClose={() => setAsking(false)} /> : null}
    </Stack>
  );
}

/**
 * "¿Ver resultados antes del cierre?": the required "Motivo", then "Ver". The results open for
 * every administrator, and the history keeps who did it and why.
 */
function ViewEarlyDialog({ eventId, onClose }: { eventId: string; onClose(): void }) {
  const view = useViewResultsEarly();
  const [reason, setReason] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function submit() {
    const parsed = viewResultsEarlyInput.safeParse({ reason });
    if (!parsed.success) {
      setFieldError(parsed.error.issues[0]?.message ?? MSG.viewReasonRequired);
      return;
    }
    setFieldError(null);
    try {
      await view.mutateAsync({ params: { eventId }, body: parsed.data });
      onClose();
    } catch (caught) {
      setError(errorMessage(caught));
    }
  }

  return (
    <FormDialog
      open
      title="¿Ver resultados antes del cierre?"
      submitLabel="Ver"
      error={error}
      busy={view.isPending}
      onClose={onClose}
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <p style={{ margin: 0 }}>
        Los resultados quedarán a la vista de todos los administradores desde ahora, y el historial
        registrará quién los abrió y por qué.
      </p>
      <TextInput
        label="Motivo"
        required
        fullWidth
        value={reason}
        error={fieldError !== null}
        helperText={fieldError ?? 'Queda en el historial del evento.'}
        onChange={(event) => setReason(event.target.value)}
        slotProps={{ htmlInput: { maxLength: 500 } }}
      />
    </FormDialog>
  );
}
