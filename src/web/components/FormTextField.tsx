import type { TextFieldProps } from '@mui/material';
import type { ComponentType } from 'react';
import { Controller, type Control, type FieldPath, type FieldValues } from 'react-hook-form';
import { TextInput } from './TextInput.tsx';

/**
 * A MUI outlined text field bound to react-hook-form, showing its validation message in place
 * of its hint. `as` swaps in another text field with the same props (the password field and its
 * "Mostrar contraseña" toggle).
 */
export function FormTextField<Values extends FieldValues>({
  control,
  name,
  as: Field = TextInput,
  ...props
}: {
  control: Control<Values>;
  name: FieldPath<Values>;
  as?: ComponentType<TextFieldProps>;
} & Omit<TextFieldProps, 'name'>) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field, fieldState }) => (
        <Field
          {...props}
          {...field}
          value={field.value ?? ''}
          error={Boolean(fieldState.error)}
          helperText={fieldState.error?.message ?? props.helperText}
          fullWidth
        />
      )}
    />
  );
}
