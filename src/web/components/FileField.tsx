import { Box, FormHelperText, Typography } from '@mui/material';
import { useId, type ChangeEvent, type ReactNode } from 'react';

/**
 * A labelled file input with its hint. The browser's own control, so it works with the keyboard,
 * screen readers and phones' file pickers as users know them.
 */
export function FileField({
  label,
  accept,
  hint,
  disabled,
  onFile,
  children,
}: {
  label: string;
  accept: string;
  hint: string;
  disabled?: boolean;
  /** Called on every change with the chosen file (undefined when the choice is cleared). */
  onFile: (file: File | undefined) => void;
  /** Shown under the hint (e.g. a link to a template). */
  children?: ReactNode;
}) {
  const inputId = useId();
  const hintId = useId();
  return (
    <Box>
      <Typography component="label" htmlFor={inputId} sx={{ display: 'block', mb: 1 }}>
        {label}
      </Typography>
      <Box
        component="input"
        id={inputId}
        type="file"
        accept={accept}
        aria-describedby={hintId}
        disabled={disabled}
        onChange={(event: ChangeEvent<HTMLInputElement>) => onFile(event.currentTarget.files?.[0])}
        sx={{ width: '100%', font: 'inherit' }}
      />
      <FormHelperText id={hintId}>{hint}</FormHelperText>
      {children}
    </Box>
  );
}
