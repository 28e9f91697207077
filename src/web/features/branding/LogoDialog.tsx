import { useState } from 'react';
import { LOGO_MAX_BYTES } from '../../../shared/constants.ts';
import { MSG } from '../../../shared/messages.ts';
import { FileField } from '../../components/FileField.tsx';
import { FormDialog } from '../../components/FormDialog.tsx';
import { replaceLogo } from '../../../shared/api/branding.ts';
import { ApiError, useEndpointMutation } from '../../lib/api.ts';

/** "Actualizar logo": uploads a PNG (the server checks its content) and reloads the page. */
export default function LogoDialog({ open, onClose }: { open: boolean; onClose(): void }) {
  const [file, setFile] = useState<File | undefined>();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const upload = useEndpointMutation(replaceLogo);

  async function save() {
    setError(null);
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
      onSubmit={() => void save()}
      onClose={onClose}
    >
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
