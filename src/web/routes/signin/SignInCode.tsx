import { Alert, Box, Button, Stack, TextField, Typography } from '@mui/material';
import { useRef, useState, type ClipboardEvent, type FormEvent, type KeyboardEvent } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { ACCESS_CODE_LENGTH } from '../../../shared/constants.ts';
import { MSG } from '../../../shared/messages.ts';
import { signInWithCode, startSignIn } from '../../../shared/api/auth.ts';
import { signInEmailFrom } from '../../features/auth/api.ts';
import { SignInLayout } from '../../features/auth/SignInLayout.tsx';
import { useToast } from '../../components/Toasts.tsx';
import { ApiError, useEndpointMutation } from '../../lib/api.ts';
import { useRefreshSession } from '../../lib/session.ts';

const EMPTY = Array.from({ length: ACCESS_CODE_LENGTH }, () => '');
const onlyDigits = (text: string) => text.replace(/\D/g, '');

/** /signin/code: six one-digit boxes for the emailed code; without a carried email, back to /signin. */
export default function SignInCode() {
  const location = useLocation();
  const email = signInEmailFrom(location.state);
  if (!email) return <Navigate to="/signin" replace />;
  return <CodeForm email={email} />;
}

function CodeForm({ email }: { email: string }) {
  const navigate = useNavigate();
  const toast = useToast();
  const refreshSession = useRefreshSession();
  const [digits, setDigits] = useState<string[]>(EMPTY);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const enter = useEndpointMutation(signInWithCode);
  const start = useEndpointMutation(startSignIn);
  const boxes = useRef<(HTMLInputElement | null)[]>([]);

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
    setError(null);
    if (!incoming) {
      setDigits((current) => current.map((d, i) => (i === index ? '' : d)));
      return;
    }
    // Pasting the whole code into any box fills every box.
    const start = incoming.length >= ACCESS_CODE_LENGTH ? 0 : index;
    const chars = incoming.slice(0, ACCESS_CODE_LENGTH - start).split('');
    setDigits((current) =>
      current.map((d, i) => (i >= start && i < start + chars.length ? chars[i - start]! : d)),
    );
    focusBox(start + chars.length);
  }

  function onKeyDown(index: number, event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === 'Backspace' && !digits[index] && index > 0) {
      event.preventDefault();
      setDigits((current) => current.map((d, i) => (i === index - 1 ? '' : d)));
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

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const code = digits.join('');
    if (code.length !== ACCESS_CODE_LENGTH) {
      setError(MSG.invalidCode);
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await enter.mutateAsync({ body: { email, code } });
      await refreshSession();
      await navigate('/exh', { replace: true });
    } catch (caught) {
      setError(
        caught instanceof ApiError && caught.status === 429 ? caught.message : MSG.invalidCode,
      );
      setDigits(EMPTY);
      focusBox(0);
    } finally {
      setBusy(false);
    }
  }

  async function resend() {
    setError(null);
    try {
      await start.mutateAsync({ body: { email } });
      setDigits(EMPTY);
      toast(MSG.codeResent);
      focusBox(0);
    } catch (caught) {
      setError(caught instanceof ApiError ? caught.message : MSG.genericError);
    }
  }

  return (
    <SignInLayout title="Le hemos enviado un código por correo, ingréselo para continuar.">
      <form noValidate onSubmit={(event) => void submit(event)}>
        <Stack spacing={2}>
          <Typography color="text.secondary" sx={{ textAlign: 'center', overflowWrap: 'anywhere' }}>
            {email}
          </Typography>
          <Box
            role="group"
            aria-label="Código de acceso"
            sx={{ display: 'flex', gap: { xs: 0.75, sm: 1 }, justifyContent: 'center' }}
          >
            {digits.map((digit, index) => (
              <TextField
                key={index}
                value={digit}
                autoFocus={index === 0}
                inputRef={(element: HTMLInputElement | null) => {
                  boxes.current[index] = element;
                }}
                onChange={(event) => fillFrom(index, event.target.value)}
                onKeyDown={(event: KeyboardEvent<HTMLInputElement>) => onKeyDown(index, event)}
                onPaste={(event: ClipboardEvent<HTMLInputElement>) => onPaste(index, event)}
                onFocus={(event) => event.target.select()}
                error={Boolean(error)}
                sx={{ width: { xs: 44, sm: 52 } }}
                slotProps={{
                  htmlInput: {
                    'aria-label': `Dígito ${index + 1}`,
                    inputMode: 'numeric',
                    pattern: '[0-9]*',
                    autoComplete: index === 0 ? 'one-time-code' : 'off',
                    style: { textAlign: 'center', fontSize: 22, padding: '12px 0' },
                  },
                }}
              />
            ))}
          </Box>
          {error ? (
            <Alert severity="error" role="alert">
              {error}
            </Alert>
          ) : null}
          <Button type="submit" variant="contained" size="large" disabled={busy}>
            acceder
          </Button>
          <Button variant="text" onClick={() => void resend()} disabled={busy}>
            Enviar un código nuevo
          </Button>
        </Stack>
      </form>
    </SignInLayout>
  );
}
