import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Typography } from '@mui/material';
import { useState } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { signInWithPassword } from '../../../shared/api/auth.ts';
import { MSG } from '../../../shared/messages.ts';
import { signInPasswordInput, type SignInPasswordInput } from '../../../shared/schemas/auth.ts';
import { FormTextField } from '../../components/FormTextField.tsx';
import { requiredInput, signInEmailFrom } from '../../features/auth/api.ts';
import { ForgotPasswordDialog } from '../../features/auth/ForgotPasswordDialog.tsx';
import { useSignInForm } from '../../features/auth/forms.ts';
import { PasswordField } from '../../features/auth/PasswordField.tsx';
import { SignInLayout } from '../../features/auth/SignInLayout.tsx';
import { useEndpointMutation } from '../../lib/api.ts';
import { useRefreshSession } from '../../lib/session.ts';
import { SignInForm } from '../../features/auth/FormParts.tsx';

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
  const enter = useEndpointMutation(signInWithPassword);
  const [forgotOpen, setForgotOpen] = useState(false);
  const { form, alert, showError } = useSignInForm<
    SignInPasswordInput,
    { email: string; password: string }
  >({
    resolver: zodResolver(signInPasswordInput),
    defaultValues: { email, password: '' },
  });

  const submit = form.handleSubmit(async (body) => {
    try {
      const answer = await enter.mutateAsync({ body });
      // With a second factor the code comes next: no session exists yet.
      if ('mfa' in answer) {
        await navigate('/signin/mfa', { replace: true });
        return;
      }
      await refreshSession();
      await navigate(answer.mfaSetupRequired ? '/admin/security' : '/admin', { replace: true });
    } catch (caught) {
      // A wrong password is said on its field; too many attempts as the server says; anything
      // else (an unknown or unfinished account) without telling which.
      showError(caught, ['password'], (error) =>
        error?.code === 'rate_limited' ? error.message : MSG.signInFailed,
      );
    }
  });

  return (
    <SignInLayout title="Ingresar como administrador">
      <SignInForm
        form={form}
        alert={alert}
        onSubmit={submit}
        label="acceder"
        after={
          <Button variant="text" onClick={() => setForgotOpen(true)}>
            Olvidé mi contraseña
          </Button>
        }
      >
        <Typography color="text.secondary" sx={{ textAlign: 'center', overflowWrap: 'anywhere' }}>
          {email}
        </Typography>
        {/* Lets password managers pair the password with the account. */}
        <input type="hidden" name="username" autoComplete="username" value={email} />
        <FormTextField
          control={form.control}
          name="password"
          as={PasswordField}
          label="Contraseña"
          autoComplete="current-password"
          autoFocus
          slotProps={requiredInput}
        />
      </SignInForm>
      {forgotOpen ? (
        <ForgotPasswordDialog initialEmail={email} onClose={() => setForgotOpen(false)} />
      ) : null}
    </SignInLayout>
  );
}
