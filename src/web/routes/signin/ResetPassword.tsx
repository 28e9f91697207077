import { Alert, Button, Stack, TextField } from '@mui/material';
import { useState, type FormEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { MSG } from '../../../shared/messages.ts';
import { passwordResetConfirmInput } from '../../../shared/schemas/auth.ts';
import { useToast } from '../../components/Toasts.tsx';
import { confirmPasswordReset } from '../../../shared/api/auth.ts';
import { requiredInput } from '../../features/auth/api.ts';
import { SignInLayout } from '../../features/auth/SignInLayout.tsx';
import { ApiError, useEndpointMutation } from '../../lib/api.ts';

/** Messages the server may answer that the user can act on; anything else is "No se pudo…". */
const SHOWN_AS_IS: string[] = [
  MSG.resetWeakPassword,
  MSG.resetPasswordMismatch,
  MSG.tooManyRequests,
];

/** /signin/resetpassword?oobCode=…: choose a new password from the emailed link. */
export default function ResetPassword() {
  const [params] = useSearchParams();
  const oobCode = params.get('oobCode') ?? '';
  const navigate = useNavigate();
  const toast = useToast();
  const [password, setPassword] = useState('');
  const [confirmPassword, setConfirmPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const confirm = useEndpointMutation(confirmPasswordReset);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const input = { oobCode, password, confirmPassword };
    const checked = passwordResetConfirmInput.safeParse(input);
    if (!checked.success) {
      const issue = checked.error.issues[0];
      setError(
        issue?.path[0] === 'oobCode' ? MSG.resetFailed : (issue?.message ?? MSG.resetFailed),
      );
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await confirm.mutateAsync({ body: input });
      toast(MSG.passwordChanged);
      await navigate('/signin', { replace: true });
    } catch (caught) {
      const message = caught instanceof ApiError ? caught.message : '';
      setError(SHOWN_AS_IS.includes(message) ? message : MSG.resetFailed);
    } finally {
      setBusy(false);
    }
  }

  return (
    <SignInLayout title="Cambiar contraseña">
      <form noValidate onSubmit={(event) => void submit(event)}>
        <Stack spacing={2}>
          <TextField
            label="Nueva contraseña"
            type="password"
            autoComplete="new-password"
            autoFocus
            slotProps={requiredInput}
            fullWidth
            value={password}
            onChange={(event) => {
              setPassword(event.target.value);
              setError(null);
            }}
            helperText="Al menos 8 caracteres, que no sea una contraseña común."
          />
          <TextField
            label="Confirmar contraseña"
            type="password"
            autoComplete="new-password"
            slotProps={requiredInput}
            fullWidth
            value={confirmPassword}
            onChange={(event) => {
              setConfirmPassword(event.target.value);
              setError(null);
            }}
          />
          {error ? (
            <Alert severity="error" role="alert">
              {error}
            </Alert>
          ) : null}
          <Button type="submit" variant="contained" size="large" disabled={busy}>
            {busy ? 'cargando' : 'Aceptar'}
          </Button>
        </Stack>
      </form>
    </SignInLayout>
  );
}
