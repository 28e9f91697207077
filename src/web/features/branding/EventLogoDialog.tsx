import { Box, Button, Typography } from '@mui/material';
import { useState } from 'react';
import { getEvent } from '../../../shared/api/events.ts';
import { removeEventLogo, replaceEventLogo } from '../../../shared/api/branding.ts';
import { LOGO_MAX_BYTES } from '../../../shared/constants.ts';
import { MSG } from '../../../shared/messages.ts';
import { FileField } from '../../components/FileField.tsx';
import { FormDialog } from '../../components/FormDialog.tsx';
import { ApiError, endpointKey, useEndpointMutation } from '../../lib/api.ts';

/** Whether the event has a logo of its own changes the event: its screens read it again. */
const eventIsStale = () => [endpointKey(getEvent)];

/**
 * "Logo del evento": a PNG of the event's own (the same rules as the programme's logo, checked by
 * the server), shown instead of the programme's on its exhibitor's screens, in its emails and in
 * its presentation; "Quitar" goes back to the programme's. Shows the logo the event has now.
 */
export default function EventLogoDialog({
  eventId,
  hasOwnLogo,
  onSaved,
  onClose,
}: {
  eventId: string;
  hasOwnLogo: boolean;
  /** Told what changed, for the screen's toast. */
  onSaved(message: string): void;
  onClose(): void;
}) {
  const [file, setFile] = useState<File | undefined>();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const upload = useEndpointMutation(replaceEventLogo, { invalidates: eventIsStale });
  const remove = useEndpointMutation(removeEventLogo, { invalidates: eventIsStale });

  async function run(work: () => Promise<unknown>, done: string) {
    setBusy(true);
    try {
      await work();
      onSaved(done);
      onClose();
    } catch (caught) {
      const refused = caught instanceof ApiError && caught.status >= 400 && caught.status < 500;
      setError(refused ? caught.message : MSG.genericError);
      setBusy(false);
    }
  }

  function save() {
    setError(null);
    if (!file) return setError(MSG.noLogoFile);
    if (file.type !== 'image/png') return setError(MSG.logoNotPng);
    if (file.size > LOGO_MAX_BYTES) return setError(MSG.fileTooLarge);
    const form = new FormData();
    form.append('logo', file);
    void run(() => upload.mutateAsync({ params: { eventId }, form }), MSG.eventLogoSaved);
  }

  return (
    <FormDialog
      open
      title="Logo del evento"
      error={error}
      busy={busy}
      onSubmit={save}
      onClose={onClose}
      extraAction={
        <Button
          color="error"
          disabled={busy || !hasOwnLogo}
          onClick={() =>
            void run(() => remove.mutateAsync({ params: { eventId } }), MSG.eventLogoRemoved)
          }
        >
          Quitar
        </Button>
      }
    >
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2 }}>
        <Box
          component="img"
          src={`/api/events/${eventId}/logo`}
          alt={hasOwnLogo ? 'Logo actual del evento' : 'Logo del programa'}
          sx={{ maxHeight: 64, maxWidth: 200, objectFit: 'contain' }}
        />
        <Typography variant="body2" color="text.secondary">
          {hasOwnLogo ? MSG.eventHasOwnLogo : MSG.eventUsesProgrammeLogo}
        </Typography>
      </Box>
      <FileField
        label="Logo"
        accept="image/png,.png"
        hint="Se recomienda un archivo PNG con fondo transparente (hasta 2 MB)."
        onFile={(chosen) => {
          setError(null);
          setFile(chosen);
        }}
      />
    </FormDialog>
  );
}
