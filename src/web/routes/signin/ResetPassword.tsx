import { zodResolver } from '@hookform/resolvers/zod';
import { useNavigate, useSearchParams } from 'react-router';
import { confirmPasswordReset } from '../../../shared/api/auth.ts';
import { MSG } from '../../../shared/messages.ts';
import {
  passwordResetConfirmInput,
  type PasswordResetConfirmInput,
} from '../../../shared/schemas/auth.ts';
import { useToast } from '../../components/Toasts.tsx';
import { NewPasswordFields } from '../../features/auth/AuthFields.tsx';
import { useSignInForm } from '../../features/auth/forms.ts';
import { SignInLayout } from '../../features/auth/SignInLayout.tsx';
import { useEndpointMutation } from '../../lib/api.ts';
import { SignInForm } from '../../features/auth/FormParts.tsx';

const FIELDS = ['password', 'confirmPassword'] as const;

/** /signin/resetpassword?oobCode=…: choose a new password from the emailed link. */
export default function ResetPassword() {
  const [params] = useSearchParams();
  const oobCode = params.get('oobCode') ?? '';
  const navigate = useNavigate();
  const toast = useToast();
  const confirm = useEndpointMutation(confirmPasswordReset);
  const { form, alert, setAlert, showError } = useSignInForm<PasswordResetConfirmInput>({
    resolver: zodResolver(passwordResetConfirmInput),
    defaultValues: { oobCode, password: '', confirmPassword: '' },
  });

  const submit = form.handleSubmit(
    async (body) => {
      try {
        await confirm.mutateAsync({ body });
        toast(MSG.passwordChanged);
        await navigate('/signin', { replace: true });
      } catch (caught) {
        // The link's own failures (spent, expired, unknown) all read "No se pudo cambiar…".
        showError(caught, FIELDS, (error) =>
          error?.code === 'rate_limited' ? error.message : MSG.resetFailed,
        );
      }
    },
    // A link without its code has no field to show the problem on.
    (errors) => {
      if (errors.oobCode) setAlert(MSG.resetFailed);
    },
  );

  return (
    <SignInLayout title="Cambiar contraseña">
      <SignInForm form={form} alert={alert} onSubmit={submit} label="Aceptar" busyLabel="cargando">
        <NewPasswordFields control={form.control} label="Nueva contraseña" autoFocus />
      </SignInForm>
    </SignInLayout>
  );
}
