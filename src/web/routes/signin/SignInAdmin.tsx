import { Alert, Button, Stack, Typography } from '@mui/material';
import { useState, type FormEvent } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { MSG } from '../../../shared/messages.ts';
import { signInWithPassword } from '../../../shared/api/auth.ts';
import { requiredInput, signInEmailFrom } from '../../features/auth/api.ts';
import { ForgotPasswordDialog } from '../../features/auth/ForgotPasswordDialog.tsx';
import { PasswordField } from '../../features/auth/PasswordField.tsx';
import { SignInLayout } from '../../features/auth/SignInLayout.tsx';
import { ApiError, useEndpointMutation } from '../../lib/api.ts';
import { useRefreshSession } from '../../lib/session.ts';

/** /signin/admin: an administrator's password step. */
export default function SignInAdmin() {
  const location = useLocation();
  const email = signInEmailFrom(location.state);
  if (!email) return <Navigate to="/signin" replace />;
  return <PasswordForm email={email} />;
}

function PasswordForm({ email }: { email: string }) {
  const navigate = useNavigate();
  const refreshSession = useRefreshSession();
  const [password, setPassword] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [forgotOpen, setForgotOpen] = useState(false);
  const enter = useEndpointMutation(signInWithPassword);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setError(null);
    setFieldError(null);
    if (!password) {
      setFieldError(MSG.requiredField);
      return;
    }
    setBusy(true);
    try {
      await enter.mutateAsync({ body: { email, password } });
      await refreshSession();
      await navigate('/admin', { replace: true });
    } catch (caught) {
      if (caught instanceof ApiError && caught.code === 'wrong_password') {
        setError(MSG.wrongPassword);
      } else if (caught instanceof ApiError && caught.status === 429) {
        setError(caught.message);
      } else {
        setError(MSG.signInFailed);
      }
    } finally {
      setBusy(false);
    }
  }

  return (
    <SignInLayout title="Ingresar como administrador">
      <form noValidate onSubmit={(event) => void submit(event)}>
        <Stack spacing={2}>
          <Typography color="text.secondary" sx={{ textAlign: 'center', overflowWrap: 'anywhere' }}>
            {email}
          </Typography>
          {/* Lets password managers pair the password with the account. */}
          <input type="hidden" name="username" autoComplete="username" value={email} />
          <PasswordField
            label="Contraseña"
            autoComplete="current-password"
            autoFocus
            slotProps={requiredInput}
            value={password}
            onChange={(event) => {
              setPassword(event.target.value);
              setFieldError(null);
            }}
            error={Boolean(fieldError)}
            helperText={fieldError}
          />
          {error ? (
            <Alert severity="error" role="alert">
              {error}
            </Alert>
          ) : null}
          <Button type="submit" variant="contained" size="large" disabled={busy}>
            acceder
          </Button>
          <Button variant="text" onClick={() => setForgotOpen(true)}>
            Olvidé mi contraseña
          </Button>
        </Stack>
      </form>
      {forgotOpen ? (
        <ForgotPasswordDialog initialEmail={email} onClose={() => setForgotOpen(false)} />
      ) : null}
    </SignInLayout>
  );
}
