import {
  Alert,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Stack,
  useMediaQuery,
  useTheme,
} from '@mui/material';
import { useId, type FormEvent, type ReactNode } from 'react';

/**
 * The product's form dialogs: title (the accessible name), fields, an error line, and the buttons
 * "Cancelar" and "Guardar" (or `submitLabel`). Full screen on phones.
 */
export function FormDialog({
  open,
  title,
  error,
  busy,
  submitLabel = 'Guardar',
  submitDisabled = false,
  size = 'sm',
  onSubmit,
  onClose,
  extraAction,
  children,
}: {
  open: boolean;
  title: string;
  error?: string | null;
  busy?: boolean;
  submitLabel?: string;
  /** The form cannot be sent yet (e.g. nothing to import). */
  submitDisabled?: boolean;
  size?: 'sm' | 'md' | 'lg';
  onSubmit(event: FormEvent<HTMLFormElement>): void;
  onClose(): void;
  /** A button of the dialog's own beside "Cancelar" (e.g. "Quitar"), at the start of the row. */
  extraAction?: ReactNode;
  children: ReactNode;
}) {
  const titleId = useId();
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('sm'));
  return (
    <Dialog
      open={open}
      onClose={busy ? undefined : onClose}
      aria-labelledby={titleId}
      maxWidth={size}
      fullWidth
      fullScreen={phone}
    >
      <form
        noValidate
        // A flex column like the dialog's own paper: the content scrolls and the buttons stay in
        // view, however long it is (a 250-row import preview).
        style={{ display: 'flex', flexDirection: 'column', minHeight: 0 }}
        onSubmit={(event) => {
          // The page never reloads: the dialog's own code sends the form.
          event.preventDefault();
          onSubmit(event);
        }}
      >
        <DialogTitle id={titleId}>{title}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            {children}
            {error ? (
              <Alert severity="error" role="alert">
                {error}
              </Alert>
            ) : null}
          </Stack>
        </DialogContent>
        <DialogActions>
          {extraAction ? <span style={{ marginRight: 'auto' }}>{extraAction}</span> : null}
          <Button onClick={onClose} disabled={busy}>
            Cancelar
          </Button>
          <Button type="submit" variant="contained" disabled={busy || submitDisabled}>
            {submitLabel}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
