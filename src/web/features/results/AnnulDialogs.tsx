import { useState } from 'react';
import { annulList, restoreList } from '../../../shared/api/annulment.ts';
import type { CategoryAddress } from '../../../shared/constants.ts';
import { MSG } from '../../../shared/messages.ts';
import { listAnnulRequest } from '../../../shared/schemas/results.ts';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { ReasonDialog } from '../../components/ReasonDialog.tsx';
import { useToast } from '../../components/Toasts.tsx';
import { errorMessage, useEndpointMutation } from '../../lib/api.ts';
import { voteEditInvalidates } from './queries.ts';

/** Which list: an exhibitor's list of one category in one event. */
export interface ListRef {
  eventId: string;
  exhibitorId: string;
  category: CategoryAddress;
}

/**
 * "Anular votos": the required "Motivo", then "Anular". The list is kept as it is and counts for
 * nothing until "Restablecer"; the server refuses a blank reason with the same message.
 */
export function AnnulListDialog({
  list,
  categoryName,
  exhibitorName,
  onClose,
}: {
  list: ListRef;
  /** The category's name ("CONSUMO"), as its tabs say it. */
  categoryName: string;
  exhibitorName: string;
  onClose(): void;
}) {
  const toast = useToast();
  const annul = useEndpointMutation(annulList, { invalidates: voteEditInvalidates });
  return (
    <ReasonDialog
      title="Anular votos"
      submitLabel="Anular"
      intro={`La lista de ${exhibitorName} en ${categoryName} se conserva como está y deja de contar en los resultados hasta que se restablezca. El expositor no podrá modificarla.`}
      hint="Lo verá el expositor en su pantalla."
      busy={annul.isPending}
      check={(reason) => {
        const parsed = listAnnulRequest.safeParse({ reason });
        return parsed.success
          ? { ok: true, reason: parsed.data.reason }
          : { ok: false, message: parsed.error.issues[0]?.message ?? MSG.annulReasonRequired };
      }}
      send={async (reason) => {
        await annul.mutateAsync({ params: list, body: { reason } });
        toast(MSG.listAnnulledDone);
        onClose();
      }}
      onClose={onClose}
    />
  );
}

/** "¿Restablecer votos?": the annulled list counts again as it was kept. */
export function RestoreListDialog({
  list,
  categoryName,
  exhibitorName,
  onClose,
}: {
  list: ListRef;
  /** The category's name ("CONSUMO"), as its tabs say it. */
  categoryName: string;
  exhibitorName: string;
  onClose(): void;
}) {
  const toast = useToast();
  const restore = useEndpointMutation(restoreList, { invalidates: voteEditInvalidates });
  const [error, setError] = useState<string | null>(null);
  return (
    <ConfirmDialog
      open
      title="¿Restablecer votos?"
      text={`La lista de ${exhibitorName} en ${categoryName} volverá a contar en los resultados tal como estaba, y el expositor podrá modificarla.`}
      confirmLabel="Restablecer"
      destructive={false}
      busy={restore.isPending}
      error={error}
      onConfirm={() => {
        restore.mutate(
          { params: list },
          {
            onSuccess: () => {
              toast(MSG.listRestoredDone);
              onClose();
            },
            onError: (caught) => setError(errorMessage(caught)),
          },
        );
      }}
      onClose={onClose}
    />
  );
}
