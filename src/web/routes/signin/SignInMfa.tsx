import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Link, Stack, Typography } from '@mui/material';
import { useState } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router';
import { signInWithRecoveryCode, signInWithTotp } from '../../../shared/api/auth.ts';
import { MSG } from '../../../shared/messages.ts';
import {
  mfaCodeInput,
  mfaRecoveryInput,
  type MfaCodeInput,
  type MfaRecoveryInput,
} from '../../../shared/schemas/mfa.ts';
import { FormTextField } from '../../components/FormTextField.tsx';
import { requiredInput } from '../../features/auth/api.ts';
import { ErrorAlert, SubmitButton } from '../../features/auth/FormParts.tsx';
import { useSignInForm } from '../../features/auth/forms.ts';
import { SignInLayout } from '../../features/auth/SignInLayout.tsx';
import { useEndpointMutation, type ApiError } from '../../lib/api.ts';
import { useRefreshSession } from '../../lib/session.ts';

/** The server's words for a refusal it explains (expired, too many tries); else a generic line. */
const alertText = (error: ApiError | null) =>
  error?.code === 'mfa_expired' ||
  error?.code === 'rate_limited' ||
  error?.code === 'mfa_invalid_code'
    ? error.message
    : MSG.genericErrorDot;

/**
 * /signin/mfa: the second step of an administrator with the second factor on, after the password.
 * A code of the authenticator app, or one of the recovery codes.
 */
export default function SignInMfa() {
  const [recovery, setRecovery] = useState(false);
  return (
    <SignInLayout title="Verificación en dos pasos">
      {recovery ? <RecoveryForm /> : <CodeForm />}
      <Stack spacing={1} sx={{ mt: 2 }}>
        <Button variant="text" onClick={() => setRecovery(!recovery)}>
          {recovery ? 'Usar el código de la aplicación' : 'Usar un código de recuperación'}
        </Button>
        <Link component={RouterLink} to="/signin" sx={{ textAlign: 'center' }}>
          Volver a ingresar
        </Link>
      </Stack>
    </SignInLayout>
  );
}

function useSignedIn() {
  const navigate = useNavigate();
  const refreshSession = useRefreshSession();
  return async () => {
    await refreshSession();
    await navigate('/admin', { replace: true });
  };
}

function CodeForm() {
  const done = useSignedIn();
  const enter = useEndpointMutation(signInWithTotp);
  const { form, alert, showError } = useSignInForm<MfaCodeInput, { code: string }>({
    resolver: zodResolver(mfaCodeInput),
    defaultValues: { code: '' },
  });
  const submit = form.handleSubmit(async (body) => {
    try {
      await enter.mutateAsync({ body });
      await done();
    } catch (caught) {
      showError(caught, ['code'], alertText);
    }
  });
  return (
    <form noValidate onSubmit={(event) => void submit(event)}>
      <Stack spacing={2}>
        <Typography color="text.secondary" sx={{ textAlign: 'center' }}>
          Ingrese el código de 6 dígitos de su aplicación de autenticación.
        </Typography>
        <FormTextField
          control={form.control}
          name="code"
          label="Código de verificación"
          autoComplete="one-time-code"
          autoFocus
          slotProps={{ htmlInput: { required: true, inputMode: 'numeric' } }}
        />
        <ErrorAlert message={alert} />
        <SubmitButton busy={form.formState.isSubmitting}>acceder</SubmitButton>
      </Stack>
    </form>
  );
}

function RecoveryForm() {
  const done = useSignedIn();
  const enter = useEndpointMutation(signInWithRecoveryCode);
  const { form, alert, showError } = useSignInForm<MfaRecoveryInput, { recoveryCode: string }>({
    resolver: zodResolver(mfaRecoveryInput),
    defaultValues: { recoveryCode: '' },
  });
  const submit = form.handleSubmit(async (body) => {
    try {
      await enter.mutateAsync({ body });
      await done();
    } catch (caught) {
      showError(caught, ['recoveryCode'], alertText);
    }
  });
  return (
    <form noValidate onSubmit={(event) => void submit(event)}>
      <Stack spacing={2}>
        <Typography color="text.secondary" sx={{ textAlign: 'center' }}>
          Cada código de recuperación sirve una sola vez.
        </Typography>
        <FormTextField
          control={form.control}
          name="recoveryCode"
          label="Código de recuperación"
          autoComplete="off"
          autoFocus
          slotProps={requiredInput}
        />
        <ErrorAlert message={alert} />
        <SubmitButton busy={form.formState.isSubmitting}>acceder</SubmitButton>
      </Stack>
    </form>
  );
}
