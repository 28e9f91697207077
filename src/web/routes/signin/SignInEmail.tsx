import { Alert, Stack } from '@mui/material';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { MSG } from '../../../shared/messages.ts';
import type { SignInStartInput } from '../../../shared/schemas/auth.ts';
import { FormTextField } from '../../components/FormTextField.tsx';
import { requiredInput, type SignInState } from '../../features/auth/api.ts';
import { lazyResolver, useSignInForm } from '../../features/auth/forms.ts';
import { SignInLayout } from '../../features/auth/SignInLayout.tsx';
import { useEndpointMutation } from '../../lib/api.ts';
import { ErrorAlert, SubmitButton } from '../../features/auth/FormParts.tsx';

// The first screen most visitors see: its schema and contract load right after it shows.
const loadContract = async () => (await import('../../../shared/api/auth.ts')).startSignIn;
const validation = lazyResolver<SignInStartInput, { email: string }>(async () => {
  const [{ zodResolver }, { signInStartInput }] = await Promise.all([
    import('@hookform/resolvers/zod'),
    import('../../../shared/schemas/auth.ts'),
  ]);
  return zodResolver(signInStartInput);
});

/** /signin: the email step. The server decides what comes next (code, password or link). */
export default function SignInEmail() {
  const navigate = useNavigate();
  const start = useEndpointMutation(loadContract);
  const [notice, setNotice] = useState<string | null>(null);
  const { form, alert, showError } = useSignInForm<SignInStartInput, { email: string }>({
    resolver: validation.resolver,
    defaultValues: { email: '' },
  });
  useEffect(() => {
    validation.prefetch();
    void loadContract();
  }, []);

  const submit = form.handleSubmit(async ({ email }) => {
    setNotice(null);
    try {
      const { next } = await start.mutateAsync({ body: { email } });
      const state: SignInState = { email };
      if (next === 'code') await navigate('/signin/code', { state });
      else if (next === 'admin') await navigate('/signin/admin', { state });
      else setNotice(MSG.pendingAdminLinkSent);
    } catch (caught) {
      showError(caught, ['email'], (error) =>
        error && error.status >= 400 && error.status < 500 ? error.message : MSG.genericError,
      );
    }
  });

  return (
    <SignInLayout title="Ingresar">
      <form noValidate onSubmit={(event) => void submit(event)}>
        <Stack spacing={2}>
          <FormTextField
            control={form.control}
            name="email"
            label="Email"
            type="email"
            autoComplete="email"
            autoFocus
            slotProps={requiredInput}
          />
          <ErrorAlert message={alert} />
          {notice ? (
            <Alert severity="success" role="status">
              {notice}
            </Alert>
          ) : null}
          <SubmitButton busy={form.formState.isSubmitting}>siguiente</SubmitButton>
        </Stack>
      </form>
    </SignInLayout>
  );
}
