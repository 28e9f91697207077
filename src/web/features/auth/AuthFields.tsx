import type { FieldPath, FieldValues, Control } from 'react-hook-form';
import { FormTextField } from '../../components/FormTextField.tsx';
import { requiredInput } from './api.ts';

const codeInput = { htmlInput: { required: true, inputMode: 'numeric' as const } };

/**
 * "Código de verificación": the six digits of the authenticator app, in a form whose field is
 * named `code` (the second sign-in step, enabling and disabling the second factor).
 */
export function VerificationCodeField<Values extends FieldValues & { code: string }>({
  control,
  autoFocus,
  helperText,
}: {
  control: Control<Values>;
  autoFocus?: boolean;
  helperText?: string;
}) {
  return (
    <FormTextField
      control={control}
      name={'code' as FieldPath<Values>}
      label="Código de verificación"
      autoComplete="one-time-code"
      autoFocus={autoFocus}
      helperText={helperText}
      slotProps={codeInput}
    />
  );
}

/**
 * A new password and its confirmation ("Confirmar contraseña"), in a form whose fields are named
 * `password` and `confirmPassword` (completing an invitation, resetting a password).
 */
export function NewPasswordFields<
  Values extends FieldValues & { password: string; confirmPassword: string },
>({ control, label, autoFocus }: { control: Control<Values>; label: string; autoFocus?: boolean }) {
  return (
    <>
      <FormTextField
        control={control}
        name={'password' as FieldPath<Values>}
        label={label}
        type="password"
        autoComplete="new-password"
        autoFocus={autoFocus}
        slotProps={requiredInput}
        helperText="Al menos 8 caracteres, que no sea una contraseña común."
      />
      <FormTextField
        control={control}
        name={'confirmPassword' as FieldPath<Values>}
        label="Confirmar contraseña"
        type="password"
        autoComplete="new-password"
        slotProps={requiredInput}
      />
    </>
  );
}
