import { Alert, Button, Stack, Typography } from '@mui/material';
import { useState, type FormEvent } from 'react';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router';
import { MSG } from '../../../shared/messages.ts';
import { authApi } from '../../features/auth/api.ts';
import { SignInLayout } from '../../features/auth/SignInLayout.tsx';
import { ApiError } from '../../lib/api.ts';
import { useRefreshSession } from '../../lib/session.ts';

/**
 * /signin/link?token=…: the one-time link of the code email. Opening the page signs nobody in
 * (mail scanners open links to inspect them); the voter's press of "acceder" posts the token.
 */
export default function SignInLink() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const navigate = useNavigate();
  const refreshSession = useRefreshSession();
  const [error, setError] = useState<string | null>(token ? null : MSG.invalidSignInLink);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await authApi.followLink(token);
      await refreshSession();
      await navigate('/exh', { replace: true });
    } catch (caught) {
      setError(caught instanceof ApiError ? caught.message : MSG.genericError);
    } finally {
      setBusy(false);
    }
  }

  return (
    <SignInLayout title="Ingresar a Premios">
      <form noValidate onSubmit={(event) => void submit(event)}>
        <Stack spacing={2}>
          <Typography color="text.secondary" sx={{ textAlign: 'center' }}>
            Presione «acceder» para ingresar con el enlace que recibió por correo.
          </Typography>
          {error ? (
            <Alert severity="error" role="alert">
              {error}
            </Alert>
          ) : null}
          <Button type="submit" variant="contained" size="large" disabled={busy || !token}>
            acceder
          </Button>
          {error ? (
            <Button component={RouterLink} to="/signin" variant="text">
              Volver a ingresar el email
            </Button>
          ) : null}
        </Stack>
      </form>
    </SignInLayout>
  );
}
