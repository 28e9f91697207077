import {
  Alert,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
} from '@mui/material';
import { useId, useState, type ReactNode } from 'react';

/**
 * A question with "Cancelar" and one action; the dialog's title is its accessible name. `text`
 * may be a node for a question whose content is still loading. Destructive actions (the default)
 * are red.
 */
export function ConfirmDialog({
  open,
  title,
  text,
  confirmLabel,
  busy,
  error,
  confirmDisabled,
  destructive = true,
  onConfirm,
  onClose,
}: {
  open: boolean;
  title: string;
  text: ReactNode;
  confirmLabel: string;
  busy?: boolean;
  /** The server's refusal, shown under the question. */
  error?: string | null;
  confirmDisabled?: boolean;
  destructive?: boolean;
  onConfirm(): void;
  onClose(): void;
}) {
  const titleId = useId();
  // Mounted from its first opening on (so that it still fades out when closed): a closed MUI
  // Dialog draws nothing yet builds its styles, and a screen holds several of them, all in the
  // long task that draws the screen when its data arrives (Lighthouse's total blocking time).
  const [opened, setOpened] = useState(open);
  if (open && !opened) setOpened(true);
  if (!opened) return null;
  return (
    <Dialog
      open={open}
      onClose={busy ? undefined : onClose}
      aria-labelledby={titleId}
      maxWidth="xs"
      fullWidth
    >
      <DialogTitle id={titleId}>{title}</DialogTitle>
      <DialogContent>
        {typeof text === 'string' ? <DialogContentText>{text}</DialogContentText> : text}
        {error ? (
          <Alert severity="error" role="alert" sx={{ mt: 2 }}>
            {error}
          </Alert>
        ) : null}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={busy}>
          Cancelar
        </Button>
        <Button
          color={destructive ? 'error' : 'primary'}
          variant="contained"
          disabled={busy || confirmDisabled}
          onClick={onConfirm}
        >
          {confirmLabel}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
