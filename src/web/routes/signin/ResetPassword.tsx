import { zodResolver } from '@hookform/resolvers/zod';
import { Checkbox, FormControlLabel, FormHelperText } from '@mui/material';
import { Controller } from 'react-hook-form';
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

/**
 * /signin/resetpassword?oobCode=…: choose a new password from the emailed link and, when asked,
 * remove the second factor too (the link proves the mailbox, as enrolling one does): the way back
 * in for an owner whose app is lost, or whose stolen password let someone else enrol one.
 */
export default function ResetPassword() {
  const [params] = useSearchParams();
  const oobCode = params.get('oobCode') ?? '';
  const navigate = useNavigate();
  const toast = useToast();
  const confirm = useEndpointMutation(confirmPasswordReset);
  const { form, alert, setAlert, showError } = useSignInForm<PasswordResetConfirmInput>({
    resolver: zodResolver(passwordResetConfirmInput),
    defaultValues: { oobCode, password: '', confirmPassword: '', resetSecondFactor: false },
  });

  const submit = form.handleSubmit(
    async (body) => {
      try {
        await confirm.mutateAsync({ body });
        toast(body.resetSecondFactor ? MSG.passwordChangedMfaReset : MSG.passwordChanged);
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
        <Controller
          control={form.control}
          name="resetSecondFactor"
          render={({ field: { value, onChange } }) => (
            <div>
              <FormControlLabel
                label="Desactivar también la verificación en dos pasos"
                control={
                  <Checkbox
                    checked={value === true}
                    onChange={(change) => onChange(change.target.checked)}
                    slotProps={{ input: { 'aria-describedby': 'reset-second-factor-help' } }}
                  />
                }
              />
              <FormHelperText id="reset-second-factor-help" sx={{ mt: 0 }}>
                Márquelo si perdió su aplicación de autenticación o si no reconoce la verificación
                activada en su cuenta. Podrá activarla de nuevo desde «Seguridad».
              </FormHelperText>
            </div>
          )}
        />
      </SignInForm>
    </SignInLayout>
  );
}
