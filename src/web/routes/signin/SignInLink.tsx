import { Button, Stack, Typography } from '@mui/material';
import { useState, type FormEvent } from 'react';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router';
import { MSG } from '../../../shared/messages.ts';
import { SignInLayout } from '../../features/auth/SignInLayout.tsx';
import { errorMessage, useEndpointMutation } from '../../lib/api.ts';
import { AFTER_SIGN_IN, takeReturnPath } from '../../lib/return-to.ts';
import { useRefreshSession } from '../../lib/session.ts';
import { ErrorAlert, SubmitButton } from '../../features/auth/FormParts.tsx';

// The contract (and Zod with it) loads after the page has painted, as on /signin.
const signInWithLink = () => import('../../../shared/api/auth.ts').then((m) => m.signInWithLink);

/**
 * /signin/link?token=…: the one-time link of the code email. Opening the page signs nobody in
 * (mail scanners open links to inspect them); the voter's press of "acceder" posts the token.
 */
export default function SignInLink() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const navigate = useNavigate();
  const refreshSession = useRefreshSession();
  const follow = useEndpointMutation(signInWithLink);
  const [error, setError] = useState<string | null>(token ? null : MSG.invalidSignInLink);
  const busy = follow.isPending;

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setError(null);
    try {
      await follow.mutateAsync({ body: { token } });
      await refreshSession();
      // Back to the event a mail's link pointed at; else the events, which open a lone one.
      await navigate(takeReturnPath() ?? '/exh', { replace: true, state: AFTER_SIGN_IN });
    } catch (caught) {
      setError(errorMessage(caught));
    }
  }

  return (
    <SignInLayout title="Ingresar a Premios">
      <form noValidate onSubmit={(event) => void submit(event)}>
        <Stack spacing={2}>
          <Typography color="text.secondary" sx={{ textAlign: 'center' }}>
            Presione «acceder» para ingresar con el enlace que recibió por correo.
          </Typography>
          <ErrorAlert message={error} />
          <SubmitButton busy={busy || !token}>acceder</SubmitButton>
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
