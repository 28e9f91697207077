import { zodResolver } from '@hookform/resolvers/zod';
import { Stack } from '@mui/material';
import { useNavigate, useSearchParams } from 'react-router';
import { confirmPasswordReset } from '../../../shared/api/auth.ts';
import { MSG } from '../../../shared/messages.ts';
import {
  passwordResetConfirmInput,
  type PasswordResetConfirmInput,
} from '../../../shared/schemas/auth.ts';
import { FormTextField } from '../../components/FormTextField.tsx';
import { useToast } from '../../components/Toasts.tsx';
import { requiredInput } from '../../features/auth/api.ts';
import { useSignInForm } from '../../features/auth/forms.ts';
import { SignInLayout } from '../../features/auth/SignInLayout.tsx';
import { useEndpointMutation } from '../../lib/api.ts';
import { ErrorAlert, SubmitButton } from '../../features/auth/FormParts.tsx';

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
      <form noValidate onSubmit={(event) => void submit(event)}>
        <Stack spacing={2}>
          <FormTextField
            control={form.control}
            name="password"
            label="Nueva contraseña"
            type="password"
            autoComplete="new-password"
            autoFocus
            slotProps={requiredInput}
            helperText="Al menos 8 caracteres, que no sea una contraseña común."
          />
          <FormTextField
            control={form.control}
            name="confirmPassword"
            label="Confirmar contraseña"
            type="password"
            autoComplete="new-password"
            slotProps={requiredInput}
          />
          <ErrorAlert message={alert} />
          <SubmitButton busy={form.formState.isSubmitting}>
            {form.formState.isSubmitting ? 'cargando' : 'Aceptar'}
          </SubmitButton>
        </Stack>
      </form>
    </SignInLayout>
  );
}
