import { useId, type InputHTMLAttributes, type ReactNode } from 'react';

/*
 * Form pieces drawn with plain elements and the shell's stylesheet (src/web/shell.css), like
 * their MUI counterparts: screens that must show before MUI loads (the first sign-in steps, the
 * exhibitor's screens) use them.
 */

/**
 * An outlined text field with its label above and its message below. `mark` shows the required
 * field's asterisk (outside the accessible name, as MUI's).
 */
export function PlainTextField({
  label,
  error,
  mark = false,
  ...input
}: {
  label: string;
  error?: string | null | undefined;
  mark?: boolean;
} & InputHTMLAttributes<HTMLInputElement>) {
  const id = useId();
  return (
    <div className="plain-field">
      <label htmlFor={id}>
        {label}
        {mark ? <span aria-hidden="true"> *</span> : null}
      </label>
      <input
        {...input}
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-message` : undefined}
      />
      {error ? (
        <p id={`${id}-message`} className="plain-field-message">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** The screen's message: an error (role alert) or a confirmation (role status). */
export function PlainAlert({
  message,
  severity = 'error',
}: {
  message: string | null | undefined;
  severity?: 'error' | 'success';
}) {
  return message ? (
    <div
      className={`plain-alert plain-alert-${severity}`}
      role={severity === 'error' ? 'alert' : 'status'}
    >
      <div className="plain-alert-message">{message}</div>
    </div>
  ) : null;
}

/** A button as MUI draws them: contained (the main action), outlined or text. */
export function PlainButton({
  busy = false,
  children,
  variant = 'contained',
  color = 'primary',
  size = 'large',
  type = 'submit',
  id,
  startIcon,
  onClick,
}: {
  busy?: boolean;
  children: ReactNode;
  variant?: 'contained' | 'outlined' | 'text';
  color?: 'primary' | 'error';
  size?: 'small' | 'medium' | 'large';
  type?: 'submit' | 'button';
  id?: string;
  startIcon?: ReactNode;
  onClick?: () => void;
}) {
  return (
    <button
      type={type}
      id={id}
      className={`plain-button plain-button-${variant} plain-button-${size}${color === 'error' ? ' plain-button-error' : ''}`}
      disabled={busy}
      onClick={onClick}
    >
      {startIcon ? <span className="plain-button-icon">{startIcon}</span> : null}
      {children}
    </button>
  );
}
