import {
  useEffect,
  useRef,
  useState,
  type ClipboardEvent,
  type FormEvent,
  type KeyboardEvent,
} from 'react';
import { useLocation, useNavigate } from 'react-router';
import { ACCESS_CODE_LENGTH } from '../../../shared/constants.ts';
import { signInEmailFrom } from '../../features/auth/api.ts';
import { PlainAlert, PlainButton, PlainSignInLayout } from '../../features/auth/Plain.tsx';
import { loadSignInStep } from '../../features/auth/step.ts';
import { OFFLINE_MSG } from '../../../shared/messages-offline.ts';
import { AFTER_SIGN_IN, takeReturnPath } from '../../lib/return-to.ts';
import { refreshSession } from '../../shell.tsx';
import SignInEmail from './SignInEmail.tsx';

const EMPTY = Array.from({ length: ACCESS_CODE_LENGTH }, () => '');
const onlyDigits = (text: string) => text.replace(/\D/g, '');

/**
 * /signin/code: six one-digit boxes for the emailed code. Without a carried email (a bookmark, a
 * link), the email step: drawn here at once (the server sends it prerendered, as for /signin)
 * while the address becomes /signin, with no blank screen between the two.
 */
export default function SignInCode() {
  const location = useLocation();
  const email = signInEmailFrom(location.state);
  if (!email) return <BackToEmailStep />;
  return <CodeForm email={email} />;
}

function BackToEmailStep() {
  const navigate = useNavigate();
  useEffect(() => void navigate('/signin', { replace: true }), [navigate]);
  return <SignInEmail />;
}

/** The step's code, or nothing when it could not load (no network). */
const loadStepOrNothing = () => loadSignInStep().catch(() => null);

function CodeForm({ email }: { email: string }) {
  const navigate = useNavigate();
  const [digits, setDigitsState] = useState(EMPTY);
  // `refusesCode`: the message says the code itself was refused, which marks its boxes invalid.
  const [alert, setAlertState] = useState<{ message: string; refusesCode: boolean } | null>(null);
  const setAlert = (message: string | null, refusesCode = false) =>
    setAlertState(message ? { message, refusesCode } : null);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const boxes = useRef<(HTMLInputElement | null)[]>([]);
  // Like /signin, the step shows before its contract and schemas (and Zod) have loaded.
  useEffect(() => void loadSignInStep().catch(() => undefined), []);

  // Any change to the code clears the screen's messages.
  const setDigits = (next: string[]) => {
    setDigitsState(next);
    setAlert(null);
    setNotice(null);
  };

  const focusBox = (index: number) => {
    const box = boxes.current[Math.max(0, Math.min(ACCESS_CODE_LENGTH - 1, index))];
    box?.focus();
    box?.select();
  };

  /** Writes digits from `index` on (typing one, or pasting/autofilling several). */
  function fillFrom(index: number, typed: string) {
    let incoming = onlyDigits(typed);
    const previous = digits[index];
    // Typing into a filled box (caret not on the digit) gives two digits: keep the new one.
    if (previous && incoming.length === 2 && incoming.includes(previous)) {
      incoming = incoming.replace(previous, '');
    }
    if (!incoming) {
      setDigits(digits.map((d, i) => (i === index ? '' : d)));
      return;
    }
    // Pasting the whole code into any box fills every box.
    const first = incoming.length >= ACCESS_CODE_LENGTH ? 0 : index;
    const chars = incoming.slice(0, ACCESS_CODE_LENGTH - first).split('');
    setDigits(
      digits.map((d, i) => (i >= first && i < first + chars.length ? chars[i - first]! : d)),
    );
    focusBox(first + chars.length);
  }

  function onKeyDown(index: number, event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === 'Backspace' && !digits[index] && index > 0) {
      event.preventDefault();
      setDigits(digits.map((d, i) => (i === index - 1 ? '' : d)));
      focusBox(index - 1);
    } else if (event.key === 'ArrowLeft') {
      event.preventDefault();
      focusBox(index - 1);
    } else if (event.key === 'ArrowRight') {
      event.preventDefault();
      focusBox(index + 1);
    }
  }

  function onPaste(index: number, event: ClipboardEvent<HTMLInputElement>) {
    event.preventDefault();
    fillFrom(index, event.clipboardData.getData('text'));
  }

  /** The step's code could not be fetched: nothing was sent, the buttons work again. */
  function unreachable() {
    setAlert(OFFLINE_MSG.genericError);
    setBusy(false);
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    const step = await loadStepOrNothing();
    if (!step) return unreachable();
    const { ApiError, MSG, call, contract, schemas } = step;
    try {
      const parsed = schemas.signInCodeInput.safeParse({ email, code: digits.join('') });
      if (!parsed.success) {
        setAlert(parsed.error.issues[0]?.message ?? MSG.invalidCode, true);
        return;
      }
      await call(contract.signInWithCode, { body: parsed.data });
    } catch (caught) {
      const failure = caught instanceof ApiError ? caught : null;
      // No answer about the code (no network, or the server failed): it is kept to send again.
      if (!failure || failure.code === 'network_error' || failure.status >= 500) {
        return setAlert(MSG.genericError);
      }
      // Emptied first: any change to the code clears the message.
      setDigits(EMPTY);
      // Refused by a limit (429): the server's message says what to do (wait, or use the link).
      setAlert(
        failure.code === 'rate_limited' || failure.code === 'code_tries_exhausted'
          ? failure.message
          : MSG.invalidCode,
        true,
      );
      focusBox(0);
      return;
    } finally {
      setBusy(false);
    }
    // Signed in: the code is spent, so nothing from here on is reported as a problem with it. The
    // exhibitor's screens read the session themselves; a screen that cannot load says so.
    await refreshSession().catch(() => undefined);
    // Back to the event a mail's link pointed at; else the events, which open a lone one.
    await navigate(takeReturnPath() ?? '/exh', { replace: true, state: AFTER_SIGN_IN });
  }

  async function resend() {
    setAlert(null);
    setBusy(true);
    const step = await loadStepOrNothing();
    if (!step) return unreachable();
    const { ApiError, MSG, call, contract } = step;
    try {
      await call(contract.startSignIn, { body: { email } });
      setDigits(EMPTY);
      setNotice(MSG.codeResent);
      focusBox(0);
    } catch (caught) {
      setAlert(caught instanceof ApiError ? caught.message : MSG.genericError);
    } finally {
      setBusy(false);
    }
  }

  return (
    <PlainSignInLayout title="Le hemos enviado un código por correo, ingréselo para continuar.">
      <form noValidate onSubmit={(event) => void submit(event)} className="signin-stack">
        <p className="signin-email">{email}</p>
        <div role="group" aria-label="Código de acceso" className="code-boxes">
          {digits.map((digit, index) => (
            <input
              key={index}
              value={digit}
              autoFocus={index === 0}
              ref={(element) => {
                boxes.current[index] = element;
              }}
              onChange={(event) => fillFrom(index, event.target.value)}
              onKeyDown={(event) => onKeyDown(index, event)}
              onPaste={(event) => onPaste(index, event)}
              onFocus={(event) => event.target.select()}
              aria-invalid={alert?.refusesCode ? true : undefined}
              aria-label={`Dígito ${index + 1}`}
              inputMode="numeric"
              pattern="[0-9]*"
              autoComplete={index === 0 ? 'one-time-code' : 'off'}
            />
          ))}
        </div>
        <PlainAlert message={alert?.message} />
        <PlainAlert message={notice} severity="success" />
        <PlainButton busy={busy}>acceder</PlainButton>
        <PlainButton busy={busy} variant="text" type="button" onClick={() => void resend()}>
          Enviar un código nuevo
        </PlainButton>
      </form>
    </PlainSignInLayout>
  );
}
