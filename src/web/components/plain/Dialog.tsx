import { useEffect, useId, useLayoutEffect, useRef, type FormEvent, type ReactNode } from 'react';
import { PlainAlert, PlainButton } from './Fields.tsx';

/**
 * A modal dialog on the browser's own <dialog>: shown while mounted, named by its title,
 * closed by Escape or "Cancelar" (not while `busy`). The browser keeps focus inside it and gives
 * it back to the control that opened it when it closes.
 */
function ModalDialog({
  busy = false,
  size,
  onClose,
  children,
}: {
  busy?: boolean;
  size: 'xs' | 'sm';
  onClose(): void;
  children(titleId: string): ReactNode;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const state = useRef({ busy, onClose });
  const pressedOutside = useRef(false);
  useEffect(() => {
    state.current = { busy, onClose };
  });
  // In a layout effect: closed before the screen's own effects run, so that one of them may move
  // focus out of it (the "Nominar" button after a removal).
  useLayoutEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (!dialog.open) dialog.showModal();
    return () => dialog.close();
  }, []);
  return (
    <dialog
      ref={ref}
      className={`plain-dialog plain-dialog-${size}`}
      aria-labelledby={titleId}
      onCancel={(event) => {
        // Escape: the screen decides, and the dialog stays while its request runs.
        event.preventDefault();
        if (!state.current.busy) state.current.onClose();
      }}
      onMouseDown={(event) => {
        pressedOutside.current = event.target === ref.current;
      }}
      onClick={(event) => {
        // A click on the backdrop (outside the dialog's box) closes it, as MUI's did; not a text
        // selection that started in a field and ended outside.
        if (pressedOutside.current && event.target === ref.current && !state.current.busy) {
          state.current.onClose();
        }
      }}
    >
      {children(titleId)}
    </dialog>
  );
}

/**
 * A form in a dialog: title, fields, the server's refusal, "Cancelar" and "Guardar". Full screen
 * on a phone.
 */
export function PlainFormDialog({
  title,
  error,
  busy,
  onSubmit,
  onClose,
  children,
}: {
  title: string;
  error?: string | null;
  busy: boolean;
  onSubmit(event: FormEvent<HTMLFormElement>): void;
  onClose(): void;
  children: ReactNode;
}) {
  return (
    <ModalDialog busy={busy} size="sm" onClose={onClose}>
      {(titleId) => (
        <form
          noValidate
          className="plain-dialog-form"
          onSubmit={(event) => {
            event.preventDefault();
            onSubmit(event);
          }}
        >
          <h2 id={titleId} className="plain-dialog-title">
            {title}
          </h2>
          <div className="plain-dialog-content plain-dialog-fields">
            {children}
            <PlainAlert message={error} />
          </div>
          <div className="plain-dialog-actions">
            <PlainButton variant="text" size="medium" type="button" busy={busy} onClick={onClose}>
              Cancelar
            </PlainButton>
            <PlainButton size="medium" busy={busy}>
              Guardar
            </PlainButton>
          </div>
        </form>
      )}
    </ModalDialog>
  );
}

/** A question with "Cancelar" and one destructive action (red). */
export function PlainConfirmDialog({
  title,
  text,
  confirmLabel,
  busy,
  onConfirm,
  onClose,
}: {
  title: string;
  text: string;
  confirmLabel: string;
  busy: boolean;
  onConfirm(): void;
  onClose(): void;
}) {
  return (
    <ModalDialog busy={busy} size="xs" onClose={onClose}>
      {(titleId) => (
        <>
          <h2 id={titleId} className="plain-dialog-title">
            {title}
          </h2>
          <div className="plain-dialog-content">
            <p className="plain-dialog-text">{text}</p>
          </div>
          <div className="plain-dialog-actions">
            <PlainButton variant="text" size="medium" type="button" busy={busy} onClick={onClose}>
              Cancelar
            </PlainButton>
            <PlainButton size="medium" color="error" type="button" busy={busy} onClick={onConfirm}>
              {confirmLabel}
            </PlainButton>
          </div>
        </>
      )}
    </ModalDialog>
  );
}
