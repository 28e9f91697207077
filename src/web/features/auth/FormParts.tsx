import { Alert, Button, Stack } from '@mui/material';
import type { FormEvent, ReactNode } from 'react';

/** The screen's one error message, when there is one (a field's own message stays on its field). */
export function ErrorAlert({ message }: { message: string | null | undefined }) {
  return message ? (
    <Alert severity="error" role="alert">
      {message}
    </Alert>
  ) : null;
}

/** The sign-in screens' main action ("acceder", "siguiente"…), off while its request runs. */
export function SubmitButton({ busy, children }: { busy: boolean; children: ReactNode }) {
  return (
    <Button type="submit" variant="contained" size="large" disabled={busy}>
      {children}
    </Button>
  );
}

/**
 * A sign-in screen's form: its fields, the screen's error message, the main action (reading
 * `busyLabel` while the request runs, when given), and what follows it (e.g. "Olvidé mi
 * contraseña").
 */
export function SignInForm({
  form,
  alert,
  onSubmit,
  label,
  busyLabel = label,
  after,
  children,
}: {
  form: { formState: { isSubmitting: boolean } };
  alert: string | null;
  onSubmit(event: FormEvent<HTMLFormElement>): Promise<void>;
  label: string;
  busyLabel?: string;
  after?: ReactNode;
  children: ReactNode;
}) {
  const busy = form.formState.isSubmitting;
  return (
    <form noValidate onSubmit={(event) => void onSubmit(event)}>
      <Stack spacing={2}>
        {children}
        <ErrorAlert message={alert} />
        <SubmitButton busy={busy}>{busy ? busyLabel : label}</SubmitButton>
        {after}
      </Stack>
    </form>
  );
}
