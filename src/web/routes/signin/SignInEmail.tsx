import { Alert, Button, Stack, TextField } from '@mui/material';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { MSG } from '../../../shared/messages.ts';
import { authApi, requiredInput, type SignInState } from '../../features/auth/api.ts';
import { SignInLayout } from '../../features/auth/SignInLayout.tsx';
import { ApiError } from '../../lib/api.ts';

/** /signin: the email step. The server decides what comes next (code, password or link). */
export default function SignInEmail() {
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setError(null);
    setNotice(null);
    setFieldError(null);
    const typed = email.trim().toLowerCase();
    if (!typed) {
      setFieldError(MSG.requiredField);
      return;
    }
    setBusy(true);
    try {
      const { next } = await authApi.start(typed);
      const state: SignInState = { email: typed };
      if (next === 'code') await navigate('/signin/code', { state });
      else if (next === 'admin') await navigate('/signin/admin', { state });
      else setNotice(MSG.pendingAdminLinkSent);
    } catch (caught) {
      if (caught instanceof ApiError && caught.fields.email) setFieldError(caught.fields.email);
      else if (caught instanceof ApiError && caught.status >= 400 && caught.status < 500) {
        setError(caught.message);
      } else setError(MSG.genericError);
    } finally {
      setBusy(false);
    }
  }

  return (
    <SignInLayout title="Ingresar">
      <form noValidate onSubmit={(event) => void submit(event)}>
        <Stack spacing={2}>
          <TextField
            label="Email"
            type="email"
            autoComplete="email"
            autoFocus
            slotProps={requiredInput}
            fullWidth
            value={email}
            onChange={(event) => {
              setEmail(event.target.value);
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
          {notice ? (
            <Alert severity="success" role="status">
              {notice}
            </Alert>
          ) : null}
          <Button type="submit" variant="contained" size="large" disabled={busy}>
            siguiente
          </Button>
        </Stack>
      </form>
    </SignInLayout>
  );
}
