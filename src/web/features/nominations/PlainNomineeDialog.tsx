import { useState } from 'react';
import { MSG } from '../../../shared/messages.ts';
import {
  emptyNominee,
  NOMINEE_FIELD_LABELS,
  type Nominee,
  type NomineeInput,
} from '../../../shared/schemas/nominee.ts';
import { isFieldRequired, type NomineeFieldSettings } from '../../../shared/nominee-fields.ts';
import { PlainFormDialog } from '../../components/plain/Dialog.tsx';
import { PlainTextField } from '../../components/plain/Fields.tsx';
import {
  askedFields,
  checkNominee,
  NOMINEE_FIELDS,
  nomineeInputAttributes,
  nomineeInputType,
  type NomineeFieldErrors as FieldErrors,
} from './fields.ts';
import { ApiError } from '../../lib/http.ts';

/**
 * The exhibitor's nominee form ("Nominar a un reseller", "Editar reseller") in plain elements;
 * it loads, with the shared schema (Zod), after the list shows. It
 * shows the fields the event asks for (`fields`, "Datos del nominado"), marking the required ones. `onSave` rejects with ApiError to
 * show the server's message; the dialog then stays open.
 */
export function PlainNomineeDialog({
  title,
  initial,
  fiscalIdReadOnly = false,
  fields,
  onSave,
  onClose,
}: {
  title: string;
  initial?: NomineeInput;
  fiscalIdReadOnly?: boolean;
  fields: NomineeFieldSettings;
  onSave(values: Nominee): Promise<void>;
  onClose(): void;
}) {
  const [values, setValues] = useState<NomineeInput>(initial ?? emptyNominee);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [submitted, setSubmitted] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  function change(field: keyof Nominee, value: string) {
    const next = { ...values, [field]: value };
    setValues(next);
    // After the first "Guardar", a field's message follows what is typed into it.
    if (submitted) {
      const result = checkNominee(next, fields);
      setErrors({ ...errors, [field]: 'errors' in result ? result.errors[field] : undefined });
    }
  }

  async function submit() {
    setSubmitted(true);
    const result = checkNominee(values, fields);
    if ('errors' in result) {
      setErrors(result.errors);
      // As the other forms: the first field with a message takes the focus.
      const first = NOMINEE_FIELDS.find((field) => result.errors[field]);
      document.querySelector<HTMLInputElement>(`dialog[open] input[name="${first}"]`)?.focus();
      return;
    }
    setErrors({});
    setError(null);
    setBusy(true);
    try {
      await onSave(result.values);
    } catch (caught) {
      if (caught instanceof ApiError && caught.status >= 400 && caught.status < 500) {
        setError(caught.message);
        setErrors(
          Object.fromEntries(
            Object.entries(caught.fields).filter(([field]) =>
              NOMINEE_FIELDS.includes(field as keyof Nominee),
            ),
          ),
        );
      } else {
        setError(MSG.genericError);
      }
    } finally {
      setBusy(false);
    }
  }

  return (
    <PlainFormDialog
      title={title}
      error={error}
      busy={busy}
      onSubmit={() => void submit()}
      onClose={onClose}
    >
      {askedFields(fields).map((field, index) => (
        <PlainTextField
          key={field}
          name={field}
          label={NOMINEE_FIELD_LABELS[field]}
          mark={isFieldRequired(field, fields)}
          required={isFieldRequired(field, fields)}
          autoFocus={index === 0}
          type={nomineeInputType(field)}
          value={values[field] ?? ''}
          error={errors[field]}
          onChange={(event) => change(field, event.target.value)}
          readOnly={field === 'fiscalId' && fiscalIdReadOnly}
          {...nomineeInputAttributes(field)}
        />
      ))}
    </PlainFormDialog>
  );
}
