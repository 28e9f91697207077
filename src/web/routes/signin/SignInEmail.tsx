import { useEffect, useState, type FormEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import type { SignInState } from '../../features/auth/api.ts';
import {
  PlainAlert,
  PlainButton,
  PlainSignInLayout,
  PlainTextField,
} from '../../features/auth/Plain.tsx';
import { loadSignInStep } from '../../features/auth/step.ts';
import { OFFLINE_MSG } from '../../../shared/messages-offline.ts';

/**
 * The step's code (its contract, Zod, the API client: about 32 KB gzip) is not needed to show the
 * form, only to send it: it starts loading when the visitor starts using the form (typing,
 * autofill, a tap), long before a phone's keyboard has typed an address, and is not part of what
 * /signin downloads to show (decision 0027).
 */
const loadStep = () => void loadSignInStep().catch(() => undefined);

/** /signin: the email step. The server decides what comes next (code, password or link). */
export default function SignInEmail() {
  const navigate = useNavigate();
  // `?next=/exh/…`: where a link opened while signed out was going (lib/return-to.ts).
  const [searchParams] = useSearchParams();
  // What was typed into the prerendered form (signin.html) before this script ran is kept, and
  // so is what was typed into the email step /signin/code shows before the address is /signin.
  const [email, setEmail] = useState(
    () =>
      globalThis.document?.querySelector<HTMLInputElement>('main.signin-page input[name="email"]')
        ?.value ?? '',
  );
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [alert, setAlert] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // Typed into the prerendered form before this script ran: the visitor is already using it.
  const [typedEarly] = useState(() => email !== '');
  useEffect(() => {
    if (typedEarly) loadStep();
  }, [typedEarly]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setNotice(null);
    setBusy(true);
    // Its code could not load (no network): nothing was sent; the button works again.
    const step = await loadSignInStep().catch(() => null);
    if (!step) {
      setAlert(OFFLINE_MSG.genericError);
      return setBusy(false);
    }
    const { ApiError, MSG, call, contract, schemas, rememberReturnPath } = step;
    try {
      const parsed = schemas.signInStartInput.safeParse({ email });
      if (!parsed.success) {
        setFieldError(parsed.error.issues[0]?.message ?? MSG.genericError);
        return;
      }
      const { next } = await call(contract.startSignIn, { body: parsed.data });
      const state: SignInState = { email: parsed.data.email };
      rememberReturnPath(searchParams.get('next'));
      if (next === 'code') await navigate('/signin/code', { state });
      else if (next === 'admin') await navigate('/signin/admin', { state });
      else setNotice(MSG.pendingAdminLinkSent);
    } catch (caught) {
      // A field message from the server goes on the field; anything else in the alert.
      const error = caught instanceof ApiError ? caught : null;
      if (error?.fields.email) setFieldError(error.fields.email);
      else
        setAlert(
          error && error.status >= 400 && error.status < 500 ? error.message : MSG.genericError,
        );
    } finally {
      setBusy(false);
    }
  }

  return (
    <PlainSignInLayout title="Ingresar">
      <form
        noValidate
        onSubmit={(event) => void submit(event)}
        onInput={loadStep}
        onPointerDown={loadStep}
        className="signin-stack"
      >
        <PlainTextField
          label="Email"
          type="email"
          name="email"
          autoComplete="email"
          autoFocus
          required
          value={email}
          error={fieldError}
          onChange={(event) => {
            // Typing clears the messages, as in every form of the app.
            setEmail(event.target.value);
            setFieldError(null);
            setAlert(null);
          }}
        />
        <PlainAlert message={alert} />
        <PlainAlert message={notice} severity="success" />
        <PlainButton busy={busy}>siguiente</PlainButton>
      </form>
    </PlainSignInLayout>
  );
}
