import { TextField, type TextFieldProps } from '@mui/material';
import { Controller, type Control, type FieldPath, type FieldValues } from 'react-hook-form';

/** A MUI text field bound to react-hook-form, showing its validation message. */
export function FormTextField<Values extends FieldValues>({
  control,
  name,
  ...props
}: { control: Control<Values>; name: FieldPath<Values> } & Omit<TextFieldProps, 'name'>) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field, fieldState }) => (
        <TextField
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
