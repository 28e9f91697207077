import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { MSG } from '../../../shared/messages.ts';
import {
  emptyNominee,
  NOMINEE_FIELD_LABELS,
  nomineeInput,
  type Nominee,
  type NomineeInput,
} from '../../../shared/schemas/nominee.ts';
import { FormDialog } from '../../components/FormDialog.tsx';
import { FormTextField } from '../../components/FormTextField.tsx';
import { ApiError } from '../../lib/api.ts';

const FIELDS = Object.keys(NOMINEE_FIELD_LABELS) as (keyof Nominee)[];
const NUMERIC: (keyof Nominee)[] = ['fiscalId', 'phone'];

/**
 * The nominee form, used by "Nominar a un reseller", "Editar reseller",
 * "Editar voto" and "Editar nominación". `onSave` rejects with ApiError to show the server's message.
 */
export function NomineeDialog({
  title,
  initial,
  fiscalIdReadOnly = false,
  failureMessage = MSG.genericError,
  onSave,
  onClose,
}: {
  title: string;
  initial?: NomineeInput;
  fiscalIdReadOnly?: boolean;
  failureMessage?: string;
  onSave(values: Nominee): Promise<void>;
  onClose(): void;
}) {
  const [error, setError] = useState<string | null>(null);
  const form = useForm<NomineeInput, unknown, Nominee>({
    resolver: zodResolver(nomineeInput),
    defaultValues: initial ?? emptyNominee,
    mode: 'onSubmit',
  });

  const submit = form.handleSubmit(async (values) => {
    setError(null);
    try {
      await onSave(values);
    } catch (caught) {
      if (caught instanceof ApiError && caught.status >= 400 && caught.status < 500) {
        setError(caught.message);
        for (const [field, message] of Object.entries(caught.fields)) {
          if (FIELDS.includes(field as keyof Nominee)) {
            form.setError(field as keyof Nominee, { message });
          }
        }
      } else {
        setError(failureMessage);
      }
    }
  });

  return (
    <FormDialog
      open
      title={title}
      error={error}
      busy={form.formState.isSubmitting}
      onSubmit={(event) => void submit(event)}
      onClose={onClose}
    >
      {FIELDS.map((field, index) => (
        <FormTextField
          key={field}
          control={form.control}
          name={field}
          label={NOMINEE_FIELD_LABELS[field]}
          required
          autoFocus={index === 0}
          type={field === 'email' ? 'email' : 'text'}
          slotProps={{
            htmlInput: {
              ...(NUMERIC.includes(field) ? { inputMode: 'numeric', pattern: '[0-9]*' } : {}),
              ...(field === 'fiscalId' && fiscalIdReadOnly ? { readOnly: true } : {}),
              maxLength: NUMERIC.includes(field) ? 20 : 200,
            },
          }}
        />
      ))}
    </FormDialog>
  );
}
