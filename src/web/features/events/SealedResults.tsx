import { Button, Stack, Typography } from '@mui/material';
import { useState } from 'react';
import { MSG } from '../../../shared/messages.ts';
import { viewResultsEarlyInput } from '../../../shared/schemas/events.ts';
import { ReasonDialog } from '../../components/ReasonDialog.tsx';
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
  return (
    <ReasonDialog
      title="¿Ver resultados antes del cierre?"
      submitLabel="Ver"
      intro="Los resultados quedarán a la vista de todos los administradores desde ahora, y el historial registrará quién los abrió y por qué."
      hint="Queda en el historial del evento."
      busy={view.isPending}
      check={(reason) => {
        const parsed = viewResultsEarlyInput.safeParse({ reason });
        return parsed.success
          ? { ok: true, reason: parsed.data.reason }
          : { ok: false, message: parsed.error.issues[0]?.message ?? MSG.viewReasonRequired };
      }}
      send={async (reason) => {
        await view.mutateAsync({ params: { eventId }, body: { reason } });
        onClose();
      }}
      onClose={onClose}
    />
  );
}
