import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Stack, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router';
import { MSG } from '../../../shared/messages.ts';
import { acceptInvitationInput, type AcceptInvitationInput } from '../../../shared/schemas/auth.ts';
import { FormTextField } from '../../components/FormTextField.tsx';
import { Loading } from '../../components/RequireRole.tsx';
import { acceptInvitation, getInvitation } from '../../../shared/api/admins.ts';
import { requiredInput } from '../../features/auth/api.ts';
import { NewPasswordFields } from '../../features/auth/AuthFields.tsx';
import { useSignInForm } from '../../features/auth/forms.ts';
import { SignInLayout } from '../../features/auth/SignInLayout.tsx';
import { ApiError, endpointQuery, useEndpointMutation } from '../../lib/api.ts';
import { useRefreshSession } from '../../lib/session.ts';
import { SignInForm } from '../../features/auth/FormParts.tsx';

const TITLE = 'Completar registro';
const FIELDS = ['fullName', 'password', 'confirmPassword'] as const;

/** /signin/newadmin?token=…: an invited administrator chooses name and password. */
export default function NewAdmin() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const invitation = useQuery({
    ...endpointQuery(getInvitation, { query: { token } }),
    enabled: Boolean(token),
    staleTime: Infinity,
  });
  if (token && invitation.isPending) return <Loading />;
  if (!token || invitation.isError) {
    const failed = invitation.error instanceof ApiError && invitation.error.status >= 500;
    return (
      <SignInLayout title={TITLE}>
        <Stack spacing={2}>
          <Alert severity="error" role="alert">
            {failed ? MSG.genericError : MSG.invalidToken}
          </Alert>
          <Button component={RouterLink} to="/signin" variant="outlined">
            Ir a Ingresar
          </Button>
        </Stack>
      </SignInLayout>
    );
  }
  return <RegistrationForm token={token} email={invitation.data?.email ?? ''} />;
}

function RegistrationForm({ token, email }: { token: string; email: string }) {
  const navigate = useNavigate();
  const refreshSession = useRefreshSession();
  const accept = useEndpointMutation(acceptInvitation);
  const { form, alert, showError } = useSignInForm<AcceptInvitationInput>({
    resolver: zodResolver(acceptInvitationInput),
    defaultValues: { token, fullName: '', password: '', confirmPassword: '' },
  });

  const submit = form.handleSubmit(async (values) => {
    try {
      await accept.mutateAsync({ body: values });
      await refreshSession();
      await navigate('/admin', { replace: true });
    } catch (caught) {
      showError(caught, FIELDS, (error) =>
        error && error.status < 500 ? error.message : MSG.genericError,
      );
    }
  });

  return (
    <SignInLayout title={TITLE}>
      <SignInForm form={form} alert={alert} onSubmit={submit} label="Aceptar" busyLabel="Cargando">
        <Typography color="text.secondary" sx={{ textAlign: 'center', overflowWrap: 'anywhere' }}>
          {email}
        </Typography>
        <input type="hidden" name="username" autoComplete="username" value={email} />
        <FormTextField
          control={form.control}
          name="fullName"
          label="Nombre completo"
          autoComplete="name"
          autoFocus
          slotProps={requiredInput}
        />
        <NewPasswordFields control={form.control} label="Contraseña" />
      </SignInForm>
    </SignInLayout>
  );
}
