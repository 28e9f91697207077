import { TextField } from '@mui/material';
import { useState } from 'react';
import { MSG } from '../../../shared/messages.ts';
import { FormDialog } from '../../components/FormDialog.tsx';
import { useToast } from '../../components/Toasts.tsx';
import { requestPasswordReset } from '../../../shared/api/auth.ts';
import { ApiError, useEndpointMutation } from '../../lib/api.ts';
import { requiredInput } from './api.ts';

/** "Recuperar contraseña": emails a reset link; the answer is the same whether the account exists. */
export function ForgotPasswordDialog({
  initialEmail,
  onClose,
}: {
  initialEmail: string;
  onClose(): void;
}) {
  const toast = useToast();
  const [email, setEmail] = useState(initialEmail);
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const request = useEndpointMutation(requestPasswordReset);

  async function send() {
    setError(null);
    setFieldError(null);
    if (!email.trim()) {
      setFieldError(MSG.requiredField);
      return;
    }
    setBusy(true);
    try {
      await request.mutateAsync({ body: { email } });
      toast(MSG.resetMailSent);
      onClose();
    } catch (caught) {
      if (caught instanceof ApiError && caught.fields.email) setFieldError(caught.fields.email);
      else setError(caught instanceof ApiError ? caught.message : MSG.genericError);
    } finally {
      setBusy(false);
    }
  }

  return (
    <FormDialog
      open
      title="Recuperar contraseña"
      submitLabel="Enviar"
      error={error}
      busy={busy}
      onClose={onClose}
      onSubmit={(event) => {
        event.preventDefault();
        void send();
      }}
    >
      <TextField
        label="Email"
        type="email"
        autoComplete="email"
        autoFocus
        slotProps={requiredInput}
        fullWidth
        value={email}
        onChange={(event) => setEmail(event.target.value)}
        error={Boolean(fieldError)}
        helperText={fieldError ?? 'Le enviaremos un enlace para elegir una nueva contraseña.'}
      />
    </FormDialog>
  );
}
