import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Link, Stack, Typography } from '@mui/material';
import { useState, type FormEvent, type ReactNode } from 'react';
import type { FieldValues, Path, UseFormProps } from 'react-hook-form';
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
import { SignInForm } from '../../features/auth/FormParts.tsx';
import { VerificationCodeField } from '../../features/auth/AuthFields.tsx';
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

/**
 * One way of passing the second step: the form signs in with `send`, then opens /admin; the
 * server's message on `field` when it names it, else in the alert.
 */
function useMfaStep<Input extends FieldValues, Output>(
  options: UseFormProps<Input, unknown, Output>,
  field: Path<Input>,
  send: (body: Output) => Promise<unknown>,
) {
  const navigate = useNavigate();
  const refreshSession = useRefreshSession();
  const { form, alert, showError } = useSignInForm<Input, Output>(options);
  const submit = form.handleSubmit(async (body) => {
    try {
      await send(body);
      await refreshSession();
      await navigate('/admin', { replace: true });
    } catch (caught) {
      showError(caught, [field], alertText);
    }
  });
  return { form, alert, submit };
}

function StepForm({
  hint,
  form,
  alert,
  submit,
  children,
}: {
  hint: string;
  form: { formState: { isSubmitting: boolean } };
  alert: string | null;
  submit(event: FormEvent<HTMLFormElement>): Promise<void>;
  children: ReactNode;
}) {
  return (
    <SignInForm form={form} alert={alert} onSubmit={submit} label="acceder">
      <Typography color="text.secondary" sx={{ textAlign: 'center' }}>
        {hint}
      </Typography>
      {children}
    </SignInForm>
  );
}

function CodeForm() {
  const enter = useEndpointMutation(signInWithTotp);
  const { form, alert, submit } = useMfaStep<MfaCodeInput, { code: string }>(
    { resolver: zodResolver(mfaCodeInput), defaultValues: { code: '' } },
    'code',
    (body) => enter.mutateAsync({ body }),
  );
  return (
    <StepForm
      hint="Ingrese el código de 6 dígitos de su aplicación de autenticación."
      alert={alert}
      form={form}
      submit={submit}
    >
      <VerificationCodeField control={form.control} autoFocus />
    </StepForm>
  );
}

function RecoveryForm() {
  const enter = useEndpointMutation(signInWithRecoveryCode);
  const { form, alert, submit } = useMfaStep<MfaRecoveryInput, { recoveryCode: string }>(
    { resolver: zodResolver(mfaRecoveryInput), defaultValues: { recoveryCode: '' } },
    'recoveryCode',
    (body) => enter.mutateAsync({ body }),
  );
  return (
    <StepForm
      hint="Cada código de recuperación sirve una sola vez."
      alert={alert}
      form={form}
      submit={submit}
    >
      <FormTextField
        control={form.control}
        name="recoveryCode"
        label="Código de recuperación"
        autoComplete="off"
        autoFocus
        slotProps={requiredInput}
      />
    </StepForm>
  );
}
