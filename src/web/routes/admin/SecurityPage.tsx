import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Box, Button, Paper, Stack, Typography } from '@mui/material';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { MSG } from '../../../shared/messages.ts';
import {
  mfaCodeInput,
  mfaSetupInput,
  type MfaCodeInput,
  type MfaSetup,
  type MfaSetupInput,
} from '../../../shared/schemas/mfa.ts';
import { FormDialog } from '../../components/FormDialog.tsx';
import { FormTextField } from '../../components/FormTextField.tsx';
import { NewPasswordFields, VerificationCodeField } from '../../features/auth/AuthFields.tsx';
import { changePasswordInput, type ChangePasswordInput } from '../../../shared/schemas/auth.ts';
import { QueryState } from '../../components/QueryState.tsx';
import { useToast } from '../../components/Toasts.tsx';
import {
  useChangePassword,
  useDisableMfa,
  useEnableMfa,
  useMfaStatus,
  useSendMfaEnrolCode,
  useStartMfaSetup,
} from '../../features/auth/security.ts';
import { ApiError, errorMessage } from '../../lib/api.ts';

/** Saves the recovery codes as a text file, the only copy the administrator gets. */
function downloadCodes(codes: string[]): void {
  const text = `Premios: códigos de recuperación (cada uno sirve una sola vez)\n\n${codes.join('\n')}\n`;
  const href = URL.createObjectURL(new Blob([text], { type: 'text/plain;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = href;
  link.download = 'premios-codigos-de-recuperacion.txt';
  link.click();
  URL.revokeObjectURL(href);
}

/**
 * /admin/security: the administrator's own second factor. Enabling first mails a code to the
 * account's address (a stolen password alone cannot enrol a factor), then shows the secret (text
 * and QR) until a code of the app confirms it, then the ten recovery codes once; disabling asks for
 * a current code.
 */
export default function SecurityPage() {
  const status = useMfaStatus();
  const [codeSent, setCodeSent] = useState(false);
  const [setup, setSetup] = useState<MfaSetup | null>(null);
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);
  const [disabling, setDisabling] = useState(false);
  const [changingPassword, setChangingPassword] = useState(false);
  const sendCode = useSendMfaEnrolCode();
  const toast = useToast();

  async function begin() {
    try {
      await sendCode.mutateAsync({});
      setCodeSent(true);
    } catch (caught) {
      toast(errorMessage(caught), { severity: 'error' });
    }
  }

  return (
    <Stack spacing={2} sx={{ maxWidth: 640 }}>
      <Typography variant="h1">Seguridad</Typography>
      <QueryState query={status}>
        {(data) => (
          <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 } }}>
            <Stack spacing={2}>
              <Typography variant="h2" sx={{ fontSize: 20 }}>
                Verificación en dos pasos
              </Typography>
              {recoveryCodes ? (
                <RecoveryCodes codes={recoveryCodes} onDone={() => setRecoveryCodes(null)} />
              ) : data.enabled ? (
                <>
                  <Typography>
                    La verificación en dos pasos está activa: al ingresar, después de la contraseña
                    se pide el código de su aplicación de autenticación. Le quedan{' '}
                    {data.recoveryCodesLeft} códigos de recuperación.
                  </Typography>
                  <Box>
                    <Button variant="outlined" color="error" onClick={() => setDisabling(true)}>
                      Desactivar verificación en dos pasos
                    </Button>
                  </Box>
                </>
              ) : setup ? (
                <ConfirmSetup
                  setup={setup}
                  onEnabled={(codes) => {
                    setSetup(null);
                    setCodeSent(false);
                    setRecoveryCodes(codes);
                  }}
                />
              ) : codeSent ? (
                <EmailCodeStep
                  onVerified={setSetup}
                  onResend={() => void begin()}
                  resending={sendCode.isPending}
                />
              ) : (
                <>
                  {data.required ? <Alert severity="warning">{MSG.mfaRequired}</Alert> : null}
                  <Typography>
                    Proteja su cuenta con un código de una aplicación de autenticación (por ejemplo
                    Google Authenticator, Microsoft Authenticator o FreeOTP) además de la
                    contraseña.
                  </Typography>
                  <Box>
                    <Button
                      variant="contained"
                      disabled={sendCode.isPending}
                      onClick={() => void begin()}
                    >
                      Activar verificación en dos pasos
                    </Button>
                  </Box>
                </>
              )}
            </Stack>
          </Paper>
        )}
      </QueryState>
      <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 } }}>
        <Stack spacing={2}>
          <Typography variant="h2" sx={{ fontSize: 20 }}>
            Contraseña
          </Typography>
          <Typography>
            Al cambiarla, las demás sesiones abiertas con su cuenta se cierran; esta sigue abierta.
          </Typography>
          <Box>
            <Button variant="outlined" onClick={() => setChangingPassword(true)}>
              Cambiar contraseña
            </Button>
          </Box>
        </Stack>
      </Paper>
      {disabling ? <DisableDialog onClose={() => setDisabling(false)} /> : null}
      {changingPassword ? (
        <ChangePasswordDialog onClose={() => setChangingPassword(false)} />
      ) : null}
    </Stack>
  );
}

/** "Cambiar contraseña": the current one, then the new one twice; the server's word per field. */
function ChangePasswordDialog({ onClose }: { onClose(): void }) {
  const change = useChangePassword();
  const toast = useToast();
  const [error, setError] = useState<string | null>(null);
  const form = useForm<ChangePasswordInput>({
    resolver: zodResolver(changePasswordInput),
    defaultValues: { currentPassword: '', password: '', confirmPassword: '' },
  });
  const submit = form.handleSubmit(async (body) => {
    setError(null);
    try {
      await change.mutateAsync({ body });
      toast(MSG.ownPasswordChanged);
      onClose();
    } catch (caught) {
      const fields = caught instanceof ApiError ? caught.fields : {};
      const named = (['currentPassword', 'password', 'confirmPassword'] as const).filter(
        (field) => fields[field],
      );
      for (const field of named) form.setError(field, { message: fields[field] ?? '' });
      if (named.length === 0) setError(errorMessage(caught));
    }
  });
  return (
    <FormDialog
      open
      title="Cambiar contraseña"
      error={error}
      busy={form.formState.isSubmitting}
      onClose={onClose}
      onSubmit={(event) => void submit(event)}
    >
      <FormTextField
        control={form.control}
        name="currentPassword"
        label="Contraseña actual"
        type="password"
        autoComplete="current-password"
        autoFocus
        required
      />
      <NewPasswordFields control={form.control} label="Nueva contraseña" />
    </FormDialog>
  );
}

/**
 * The form of a current authenticator code: the server's message on the code field when it names
 * it, anything else in the form's error line.
 */
function useCodeForm(send: (body: { code: string }) => Promise<void>) {
  const [error, setError] = useState<string | null>(null);
  const form = useForm<MfaCodeInput, unknown, { code: string }>({
    resolver: zodResolver(mfaCodeInput),
    defaultValues: { code: '' },
  });
  const submit = form.handleSubmit(async (body) => {
    setError(null);
    try {
      await send(body);
    } catch (caught) {
      if (caught instanceof ApiError && caught.fields.code) {
        form.setError('code', { message: caught.fields.code });
      } else {
        setError(errorMessage(caught));
      }
    }
  });
  return { form, error, submit };
}

/**
 * The code mailed to the account's address: proof that whoever enrols reads that mailbox. Right,
 * it opens the secret; wrong or expired, its message shows on the field.
 */
function EmailCodeStep({
  onVerified,
  onResend,
  resending,
}: {
  onVerified(setup: MfaSetup): void;
  onResend(): void;
  resending: boolean;
}) {
  const start = useStartMfaSetup();
  const [error, setError] = useState<string | null>(null);
  const form = useForm<MfaSetupInput, unknown, { emailCode: string }>({
    resolver: zodResolver(mfaSetupInput),
    defaultValues: { emailCode: '' },
  });
  const submit = form.handleSubmit(async (body) => {
    setError(null);
    try {
      onVerified(await start.mutateAsync({ body }));
    } catch (caught) {
      if (caught instanceof ApiError && caught.fields.emailCode) {
        form.setError('emailCode', { message: caught.fields.emailCode });
      } else {
        setError(errorMessage(caught));
      }
    }
  });
  return (
    <form noValidate onSubmit={(event) => void submit(event)}>
      <Stack spacing={2}>
        <Alert severity="info">{MSG.mfaEnrolCodeSent}</Alert>
        <FormTextField
          control={form.control}
          name="emailCode"
          label="Código enviado por correo"
          autoComplete="one-time-code"
          autoFocus
          helperText="Los 6 dígitos del correo que acabamos de enviarle."
          slotProps={{ htmlInput: { required: true, inputMode: 'numeric' } }}
        />
        {error ? (
          <Alert severity="error" role="alert">
            {error}
          </Alert>
        ) : null}
        <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
          <Button type="submit" variant="contained" disabled={form.formState.isSubmitting}>
            Continuar
          </Button>
          <Button variant="outlined" disabled={resending} onClick={onResend}>
            Enviar otro código
          </Button>
        </Box>
      </Stack>
    </form>
  );
}

function ConfirmSetup({ setup, onEnabled }: { setup: MfaSetup; onEnabled(codes: string[]): void }) {
  const enable = useEnableMfa();
  const { form, error, submit } = useCodeForm(async (body) => {
    const { recoveryCodes } = await enable.mutateAsync({ body });
    onEnabled(recoveryCodes);
  });
  return (
    <form noValidate onSubmit={(event) => void submit(event)}>
      <Stack spacing={2}>
        <Typography>
          Escanee el código QR con su aplicación de autenticación, o escriba la clave a mano. Luego
          ingrese el código de 6 dígitos que muestra la aplicación.
        </Typography>
        <Box
          component="img"
          src={setup.qrCode}
          alt="Código QR"
          sx={{ width: 200, height: 200, alignSelf: 'center' }}
        />
        <Box>
          <Typography variant="body2" color="text.secondary">
            Clave
          </Typography>
          <Typography sx={{ fontFamily: 'monospace', fontSize: 18, overflowWrap: 'anywhere' }}>
            {setup.secret}
          </Typography>
        </Box>
        <VerificationCodeField control={form.control} />
        {error ? (
          <Alert severity="error" role="alert">
            {error}
          </Alert>
        ) : null}
        <Box>
          <Button type="submit" variant="contained" disabled={form.formState.isSubmitting}>
            Confirmar
          </Button>
        </Box>
      </Stack>
    </form>
  );
}

function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone(): void }) {
  return (
    <Stack spacing={2}>
      <Alert severity="success">{MSG.mfaEnabled}</Alert>
      <Typography>
        Guarde estos códigos de recuperación en un lugar seguro: cada uno permite ingresar una vez
        sin la aplicación. No se volverán a mostrar.
      </Typography>
      <Box
        component="ul"
        aria-label="Códigos de recuperación"
        sx={{
          display: 'grid',
          gridTemplateColumns: { xs: '1fr 1fr', sm: 'repeat(5, 1fr)' },
          gap: 1,
          listStyle: 'none',
          p: 0,
          m: 0,
          fontFamily: 'monospace',
          fontSize: 16,
        }}
      >
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </Box>
      <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
        <Button variant="contained" onClick={() => downloadCodes(codes)}>
          Descargar códigos
        </Button>
        <Button variant="outlined" onClick={onDone}>
          Listo
        </Button>
      </Box>
    </Stack>
  );
}

function DisableDialog({ onClose }: { onClose(): void }) {
  const disable = useDisableMfa();
  const toast = useToast();
  const { form, error, submit } = useCodeForm(async (body) => {
    await disable.mutateAsync({ body });
    toast(MSG.mfaDisabled);
    onClose();
  });
  return (
    <FormDialog
      open
      title="Desactivar verificación en dos pasos"
      submitLabel="Desactivar"
      error={error}
      busy={form.formState.isSubmitting}
      onClose={onClose}
      onSubmit={(event) => void submit(event)}
    >
      <VerificationCodeField
        control={form.control}
        autoFocus
        helperText="El código que muestra ahora su aplicación de autenticación."
      />
    </FormDialog>
  );
}
