import {
  FormControl,
  FormHelperText,
  InputLabel,
  OutlinedInput,
  type TextFieldProps,
} from '@mui/material';
import { useId } from 'react';

/**
 * MUI's outlined text field built from its parts (label, input, helper text), with the same
 * markup and accessible names as `TextField`. TextField also carries the whole `Select` (menu,
 * popover, modal) for its `select` mode, which the forms never use: leaving it out keeps the
 * sign-in screen's first load small.
 */
export function TextInput({
  id: givenId,
  label,
  helperText,
  error,
  fullWidth,
  required,
  disabled,
  size,
  sx,
  className,
  slotProps,
  inputRef,
  value,
  onChange,
  onBlur,
  onFocus,
  name,
  type,
  autoComplete,
  autoFocus,
  placeholder,
}: TextFieldProps) {
  const ownId = useId();
  const id = givenId ?? ownId;
  const helperId = helperText ? `${id}-helper-text` : undefined;
  const inputSlot = typeof slotProps?.input === 'object' ? slotProps.input : {};
  const htmlInput = typeof slotProps?.htmlInput === 'object' ? slotProps.htmlInput : {};
  return (
    <FormControl
      variant="outlined"
      fullWidth={fullWidth}
      required={required}
      disabled={disabled}
      error={error}
      size={size}
      sx={sx}
      className={className}
    >
      {label ? (
        <InputLabel htmlFor={id} id={`${id}-label`}>
          {label}
        </InputLabel>
      ) : null}
      <OutlinedInput
        {...inputSlot}
        id={id}
        label={label}
        name={name}
        type={type}
        value={value}
        onChange={onChange}
        onBlur={onBlur}
        onFocus={onFocus}
        autoComplete={autoComplete}
        autoFocus={autoFocus}
        placeholder={placeholder}
        inputRef={inputRef}
        inputProps={{ ...htmlInput, 'aria-describedby': helperId }}
      />
      {helperText ? <FormHelperText id={helperId}>{helperText}</FormHelperText> : null}
    </FormControl>
  );
}
