import { zodResolver } from '@hookform/resolvers/zod';
import { requestPasswordReset } from '../../../shared/api/auth.ts';
import { MSG } from '../../../shared/messages.ts';
import {
  passwordResetRequestInput,
  type PasswordResetRequestInput,
} from '../../../shared/schemas/auth.ts';
import { FormDialog } from '../../components/FormDialog.tsx';
import { EmailField } from '../../components/EmailField.tsx';
import { useToast } from '../../components/Toasts.tsx';
import { useEndpointMutation } from '../../lib/api.ts';
import { requiredInput } from './api.ts';
import { useSignInForm } from './forms.ts';

/** "Recuperar contraseña": emails a reset link; the answer is the same whether the account exists. */
export function ForgotPasswordDialog({
  initialEmail,
  onClose,
}: {
  initialEmail: string;
  onClose(): void;
}) {
  const toast = useToast();
  const request = useEndpointMutation(requestPasswordReset);
  const { form, alert, showError } = useSignInForm<PasswordResetRequestInput, { email: string }>({
    resolver: zodResolver(passwordResetRequestInput),
    defaultValues: { email: initialEmail },
  });

  const send = form.handleSubmit(async (body) => {
    try {
      await request.mutateAsync({ body });
      toast(MSG.resetMailSent);
      onClose();
    } catch (caught) {
      showError(caught, ['email'], (error) => error?.message ?? MSG.genericError);
    }
  });

  return (
    <FormDialog
      open
      title="Recuperar contraseña"
      submitLabel="Enviar"
      error={alert}
      busy={form.formState.isSubmitting}
      onClose={onClose}
      onSubmit={(event) => void send(event)}
    >
      <EmailField
        control={form.control}
        autoComplete="email"
        slotProps={requiredInput}
        helperText="Le enviaremos un enlace para elegir una nueva contraseña."
      />
    </FormDialog>
  );
}
