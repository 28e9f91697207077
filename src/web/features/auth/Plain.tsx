import { useId, type InputHTMLAttributes, type ReactNode } from 'react';

/*
 * The first sign-in steps (/signin, /signin/code) in plain elements styled by the shell's
 * stylesheet (src/web/shell.css), drawn like their MUI siblings: they show with React and the
 * router alone, before MUI and its styling engine load.
 */

/** Logo, one heading and a narrow card that fits a 390 px phone (as SignInLayout). */
export function PlainSignInLayout({ title, children }: { title: string; children: ReactNode }) {
  return (
    <main className="signin-page">
      <div className="signin-card">
        <div className="signin-logo">
          <img src="/api/logo" alt="Logo" height={64} />
        </div>
        <h1 className="signin-title">{title}</h1>
        {children}
      </div>
    </main>
  );
}

/** An outlined text field with its label above and its message below. */
export function PlainTextField({
  label,
  error,
  ...input
}: { label: string; error?: string | null | undefined } & InputHTMLAttributes<HTMLInputElement>) {
  const id = useId();
  return (
    <div className="plain-field">
      <label htmlFor={id}>{label}</label>
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
      {message}
    </div>
  ) : null;
}

/** The step's main action ("siguiente", "acceder"), off while its request runs. */
export function PlainButton({
  busy,
  children,
  variant = 'contained',
  type = 'submit',
  onClick,
}: {
  busy: boolean;
  children: ReactNode;
  variant?: 'contained' | 'text';
  type?: 'submit' | 'button';
  onClick?: () => void;
}) {
  return (
    <button
      type={type}
      className={`plain-button plain-button-${variant}`}
      disabled={busy}
      onClick={onClick}
    >
      {children}
    </button>
  );
}
