import { zodResolver } from '@hookform/resolvers/zod';
import { Box, Button, Stack, TextField, Typography } from '@mui/material';
import { useRef, type ClipboardEvent, type KeyboardEvent } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { ACCESS_CODE_LENGTH } from '../../../shared/constants.ts';
import { MSG } from '../../../shared/messages.ts';
import { signInCodeInput, type SignInCodeInput } from '../../../shared/schemas/auth.ts';
import { signInWithCode, startSignIn } from '../../../shared/api/auth.ts';
import { signInEmailFrom } from '../../features/auth/api.ts';
import { useSignInForm } from '../../features/auth/forms.ts';
import { SignInLayout } from '../../features/auth/SignInLayout.tsx';
import { useToast } from '../../components/Toasts.tsx';
import { useEndpointMutation } from '../../lib/api.ts';
import { useRefreshSession } from '../../lib/session.ts';
import { ErrorAlert, SubmitButton } from '../../features/auth/FormParts.tsx';

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
  const enter = useEndpointMutation(signInWithCode);
  const start = useEndpointMutation(startSignIn);
  const { form, alert, setAlert, showError } = useSignInForm<SignInCodeInput>({
    resolver: zodResolver(signInCodeInput),
    defaultValues: { email, code: '' },
  });
  const code = form.watch('code');
  const digits = EMPTY.map((empty, index) => code[index] ?? empty);
  const setDigits = (next: string[]) => form.setValue('code', next.join(''));
  // The six boxes are one field: its message is the screen's alert.
  const error = form.formState.errors.code?.message ?? alert;
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

  const submit = form.handleSubmit(async (body) => {
    try {
      await enter.mutateAsync({ body });
      await refreshSession();
      await navigate('/exh', { replace: true });
    } catch (caught) {
      // Emptied first: any change to the code clears the message.
      form.setValue('code', '');
      showError(caught, [], (failure) =>
        // Refused by a limit (429): the server's message says what to do (wait, or use the link).
        failure?.code === 'rate_limited' || failure?.code === 'code_tries_exhausted'
          ? failure.message
          : MSG.invalidCode,
      );
      focusBox(0);
    }
  });

  async function resend() {
    setAlert(null);
    try {
      await start.mutateAsync({ body: { email } });
      form.setValue('code', '');
      toast(MSG.codeResent);
      focusBox(0);
    } catch (caught) {
      showError(caught, [], (failure) => failure?.message ?? MSG.genericError);
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
          <ErrorAlert message={error} />
          <SubmitButton busy={form.formState.isSubmitting}>acceder</SubmitButton>
          <Button
            variant="text"
            onClick={() => void resend()}
            disabled={form.formState.isSubmitting}
          >
            Enviar un código nuevo
          </Button>
        </Stack>
      </form>
    </SignInLayout>
  );
}
