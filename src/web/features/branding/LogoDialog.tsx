import { Box, FormHelperText, Typography } from '@mui/material';
import { useId, useRef, useState } from 'react';
import { LOGO_MAX_BYTES } from '../../../shared/constants.ts';
import { MSG } from '../../../shared/messages.ts';
import { FormDialog } from '../../components/FormDialog.tsx';
import { replaceLogo } from '../../../shared/api/branding.ts';
import { ApiError, useEndpointMutation } from '../../lib/api.ts';

/** "Actualizar logo": uploads a PNG (the server checks its content) and reloads the page. */
export default function LogoDialog({ open, onClose }: { open: boolean; onClose(): void }) {
  const inputId = useId();
  const hintId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const upload = useEndpointMutation(replaceLogo);

  async function save() {
    setError(null);
    const file = input.current?.files?.[0];
    if (!file) return setError(MSG.noLogoFile);
    if (file.type !== 'image/png') return setError(MSG.logoNotPng);
    if (file.size > LOGO_MAX_BYTES) return setError(MSG.fileTooLarge);
    const body = new FormData();
    body.append('logo', file);
    setBusy(true);
    try {
      await upload.mutateAsync({ form: body });
      // Every image of the logo (top bar, landing) is fetched again.
      window.location.reload();
    } catch (caught) {
      const refused = caught instanceof ApiError && caught.status >= 400 && caught.status < 500;
      setError(refused ? caught.message : MSG.genericError);
      setBusy(false);
    }
  }

  return (
    <FormDialog
      open={open}
      title="Actualizar logo"
      error={error}
      busy={busy}
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
      onClose={onClose}
    >
      <Box>
        <Typography component="label" htmlFor={inputId} sx={{ display: 'block', mb: 1 }}>
          Logo
        </Typography>
        <Box
          component="input"
          ref={input}
          id={inputId}
          type="file"
          accept="image/png,.png"
          aria-describedby={hintId}
          onChange={() => setError(null)}
          sx={{ width: '100%', font: 'inherit' }}
        />
        <FormHelperText id={hintId}>
          Se recomienda un archivo PNG con fondo transparente (hasta 2 MB).
        </FormHelperText>
      </Box>
    </FormDialog>
  );
}
