import { Alert, Button } from '@mui/material';
import type { ReactNode } from 'react';

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
