import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { MSG } from '../../../shared/messages.ts';
import { NOMINEE_FIELD_LABELS } from '../../../shared/schemas/nominee.ts';
import {
  emptyReseller,
  resellerInput,
  type Reseller,
  type ResellerInput,
  type ResellerView,
} from '../../../shared/schemas/registry.ts';
import { FormDialog } from '../../components/FormDialog.tsx';
import { FormTextField } from '../../components/FormTextField.tsx';
import { useToast } from '../../components/Toasts.tsx';
import { ApiError } from '../../lib/api.ts';
import { useAddReseller, useEditReseller } from './queries.ts';

/** The nominee form's fields, in its order; name and fiscal id required, the rest optional. */
const FIELDS: { name: keyof Reseller; required?: boolean; type?: string }[] = [
  { name: 'name', required: true },
  { name: 'registeredName' },
  { name: 'fiscalId', required: true },
  { name: 'location' },
  { name: 'city' },
  { name: 'contactName' },
  { name: 'contactPosition' },
  { name: 'phone', type: 'tel' },
  { name: 'email', type: 'email' },
];

const inputAttributes = (field: keyof Reseller) =>
  field === 'fiscalId'
    ? { inputMode: 'numeric' as const, maxLength: 60 }
    : { maxLength: field === 'phone' ? 40 : field === 'email' ? 254 : 200 };

/**
 * "Nuevo reseller del padrón", or given `reseller` "Editar reseller del padrón": the nominee
 * form's fields. The server's refusals (an id already in the registry, a CUIT with a wrong check
 * digit) show on their field.
 */
export function ResellerDialog({
  reseller,
  onClose,
}: {
  reseller?: ResellerView;
  onClose(): void;
}) {
  const add = useAddReseller();
  const edit = useEditReseller();
  const toast = useToast();
  const [error, setError] = useState<string | null>(null);
  const form = useForm<ResellerInput, unknown, Reseller>({
    resolver: zodResolver(resellerInput),
    defaultValues: reseller
      ? Object.fromEntries(FIELDS.map(({ name }) => [name, reseller[name]]))
      : emptyReseller,
  });

  const submit = form.handleSubmit(async (values) => {
    setError(null);
    try {
      if (reseller) {
        await edit.mutateAsync({ params: { fiscalId: reseller.fiscalId }, body: values });
      } else {
        await add.mutateAsync({ body: values });
      }
      toast(MSG.registrySaved);
      onClose();
    } catch (caught) {
      if (caught instanceof ApiError && caught.status >= 400 && caught.status < 500) {
        setError(caught.message);
        for (const [field, message] of Object.entries(caught.fields)) {
          if (FIELDS.some(({ name }) => name === field)) {
            form.setError(field as keyof Reseller, { message });
          }
        }
      } else {
        setError(MSG.genericError);
      }
    }
  });

  return (
    <FormDialog
      open
      title={reseller ? 'Editar reseller del padrón' : 'Nuevo reseller del padrón'}
      error={error}
      busy={form.formState.isSubmitting}
      onSubmit={(event) => void submit(event)}
      onClose={onClose}
    >
      {FIELDS.map((field, index) => (
        <FormTextField
          key={field.name}
          control={form.control}
          name={field.name}
          label={NOMINEE_FIELD_LABELS[field.name]}
          type={field.type ?? 'text'}
          required={field.required ?? false}
          autoFocus={index === 0}
          autoComplete="off"
          slotProps={{ htmlInput: inputAttributes(field.name) }}
        />
      ))}
    </FormDialog>
  );
}
