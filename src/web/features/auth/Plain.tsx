import type { ReactNode } from 'react';

export { PlainAlert, PlainButton, PlainTextField } from '../../components/plain/Fields.tsx';

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
