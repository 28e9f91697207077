import type { TextFieldProps } from '@mui/material';
import type { Control, FieldPath, FieldValues } from 'react-hook-form';
import { FormTextField } from './FormTextField.tsx';

/** "Email": the first field of a dialog whose form has an `email` field, focused on opening. */
export function EmailField<Values extends FieldValues & { email: string }>({
  control,
  ...props
}: { control: Control<Values> } & Pick<
  TextFieldProps,
  'autoComplete' | 'helperText' | 'required' | 'slotProps'
>) {
  return (
    <FormTextField
      {...props}
      control={control}
      name={'email' as FieldPath<Values>}
      label="Email"
      type="email"
      autoFocus
    />
  );
}
