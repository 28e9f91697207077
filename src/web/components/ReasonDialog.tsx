import { useState, type ReactNode } from 'react';
import { errorMessage } from '../lib/api.ts';
import { FormDialog } from './FormDialog.tsx';
import { TextInput } from './TextInput.tsx';

/**
 * A dialog that asks for a required "Motivo" before an action the history keeps with its reason
 * ("Anular votos", "¿Ver resultados antes del cierre?"). `check` says what is wrong with the text,
 * with the server's own rule; `send` does the action and rejects with the server's refusal.
 */
export function ReasonDialog({
  title,
  submitLabel,
  intro,
  hint,
  busy,
  check,
  send,
  onClose,
}: {
  title: string;
  submitLabel: string;
  intro: ReactNode;
  /** What becomes of the reason, under the field. */
  hint: string;
  busy: boolean;
  check(reason: string): { ok: true; reason: string } | { ok: false; message: string };
  send(reason: string): Promise<void>;
  onClose(): void;
}) {
  const [reason, setReason] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function submit() {
    const checked = check(reason);
    if (!checked.ok) {
      setFieldError(checked.message);
      return;
    }
    setFieldError(null);
    try {
      await send(checked.reason);
    } catch (caught) {
      setError(errorMessage(caught));
    }
  }

  return (
    <FormDialog
      open
      title={title}
      submitLabel={submitLabel}
      error={error}
      busy={busy}
      onClose={onClose}
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <p style={{ margin: 0 }}>{intro}</p>
      <TextInput
        label="Motivo"
        required
        fullWidth
        value={reason}
        error={fieldError !== null}
        helperText={fieldError ?? hint}
        onChange={(event) => setReason(event.target.value)}
        slotProps={{ htmlInput: { maxLength: 500 } }}
      />
    </FormDialog>
  );
}
