import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { MSG } from '../../../shared/messages.ts';
import { registerAdminInput, type RegisterAdminInput } from '../../../shared/schemas/auth.ts';
import { FormDialog } from '../../components/FormDialog.tsx';
import { EmailField } from '../../components/EmailField.tsx';
import { useToast } from '../../components/Toasts.tsx';
import { inviteAdmin, listAdmins } from '../../../shared/api/admins.ts';
import { ApiError, endpointKey, useEndpointMutation } from '../../lib/api.ts';

/**
 * Top bar "Registrar nuevo administrador": the server emails the invitation link; the address
 * must not belong to any administrator or exhibitor.
 */
export default function RegisterAdminDialog({ open, onClose }: { open: boolean; onClose(): void }) {
  const toast = useToast();
  const [error, setError] = useState<string | null>(null);
  const invite = useEndpointMutation(inviteAdmin, { invalidates: () => [endpointKey(listAdmins)] });
  const form = useForm<RegisterAdminInput>({
    resolver: zodResolver(registerAdminInput),
    defaultValues: { email: '' },
  });

  const submit = form.handleSubmit(async (values) => {
    setError(null);
    try {
      await invite.mutateAsync({ body: values });
      toast(MSG.adminInvitationSent);
      onClose();
    } catch (caught) {
      if (caught instanceof ApiError && caught.status === 409 && caught.code === 'email_in_use') {
        setError(MSG.adminEmailInUse);
      } else if (caught instanceof ApiError && caught.fields.email) {
        form.setError('email', { message: caught.fields.email });
      } else {
        setError(MSG.genericErrorDot);
      }
    }
  });

  return (
    <FormDialog
      open={open}
      title="Registrar nuevo administrador"
      error={error}
      busy={form.formState.isSubmitting}
      onClose={onClose}
      onSubmit={(event) => void submit(event)}
    >
      <EmailField
        control={form.control}
        autoComplete="off"
        required
        helperText="Le enviaremos un enlace para completar su registro."
      />
    </FormDialog>
  );
}
