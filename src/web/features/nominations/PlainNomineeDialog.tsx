import { useCallback, useState } from 'react';
import type { CategoryAddress } from '../../../shared/constants.ts';
import { searchRegistryAsExhibitor } from '../../../shared/api/registry-search.ts';
import { MSG } from '../../../shared/messages.ts';
import {
  emptyNominee,
  NOMINEE_FIELD_LABELS,
  type Nominee,
  type NomineeInput,
} from '../../../shared/schemas/nominee.ts';
import { isFieldRequired, type NomineeFieldSettings } from '../../../shared/nominee-fields.ts';
import { PlainFormDialog } from '../../components/plain/Dialog.tsx';
import { PlainButton, PlainTextField } from '../../components/plain/Fields.tsx';
import {
  askedFields,
  checkNominee,
  NOMINEE_FIELDS,
  nomineeInputAttributes,
  nomineeInputType,
  type NomineeFieldErrors as FieldErrors,
} from './fields.ts';
import { ApiError, call } from '../../lib/http.ts';
import {
  registryOptionLabel,
  type RegistrySearchEntry,
  type RegistrySearchResponse,
} from '../../../shared/schemas/registry-search.ts';
import { PlainRegistryCombobox } from './PlainRegistryCombobox.tsx';
import {
  hasRegistryFields,
  isRegistryField,
  valuesFromEntry,
  valuesWithoutEntry,
} from './registry-choice.ts';

/**
 * The exhibitor's nominee form ("Nominar a un reseller", "Editar reseller") in plain elements;
 * it loads, with the shared schema (Zod), after the list shows. It
 * shows the fields the event asks for (`fields`, "Datos del nominado"), marking the required ones. `onSave` rejects with ApiError to
 * show the server's message; the dialog then stays open. With `search` ("Nominar a un reseller"),
 * "Buscar en el padrón" comes first: choosing an entry fills the reseller's fields, read-only
 * until "Cambiar", and its contact when it has one (still editable). With `registryOnly` (an event
 * of "Solo los del padrón") the reseller's own fields are never typed: they show, read-only, once
 * an entry is chosen (or as stored, when editing), and saving before a choice says so on the search.
 */
export function PlainNomineeDialog({
  title,
  initial,
  fiscalIdReadOnly = false,
  fields,
  registryOf,
  registryOnly = false,
  onSave,
  onClose,
}: {
  title: string;
  /** The event takes only registry resellers: their fields come from "Buscar en el padrón". */
  registryOnly?: boolean;
  /** "Buscar en el padrón" for this list: the registry and the exhibitor's earlier nominees. */
  registryOf?: { eventId: string; category: CategoryAddress };
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
  const [chosen, setChosen] = useState<RegistrySearchEntry | null>(null);
  const [choiceError, setChoiceError] = useState<string | undefined>(undefined);
  const eventId = registryOf?.eventId;
  const category = registryOf?.category;
  const search = useCallback(
    (q: string): Promise<RegistrySearchResponse> =>
      eventId && category
        ? call(searchRegistryAsExhibitor, { params: { eventId, category }, query: { q } })
        : Promise.resolve({ registry: [], earlier: [] }),
    [eventId, category],
  );

  /** After choosing, the focus goes to the first field left to fill (else the first contact field). */
  function focusAfterChoice(values: NomineeInput) {
    const editable = askedFields(fields).filter((field) => !isRegistryField(field));
    const next = editable.find((field) => (values[field] ?? '') === '') ?? editable[0];
    requestAnimationFrame(() =>
      document
        .querySelector<HTMLElement>(
          next ? `dialog[open] input[name="${next}"]` : 'dialog[open] button[type="submit"]',
        )
        ?.focus(),
    );
  }

  function choose(entry: RegistrySearchEntry) {
    const next = valuesFromEntry(entry, values);
    setValues(next);
    setChosen(entry);
    setChoiceError(undefined);
    if (submitted) {
      const result = checkNominee(next, fields);
      setErrors('errors' in result ? result.errors : {});
    }
    focusAfterChoice(next);
  }

  function changeChoice() {
    setValues(valuesWithoutEntry(values));
    setChosen(null);
    // The combobox is back in the chosen entry's place: it takes the focus.
    requestAnimationFrame(() =>
      document.querySelector<HTMLElement>('dialog[open] [role="combobox"]')?.focus(),
    );
  }

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
    if (registryOnly && !hasRegistryFields(values)) {
      // Nothing chosen yet: the reseller's fields are not shown, the search takes the message.
      setChoiceError(MSG.registryChoiceRequired);
      setErrors('errors' in result ? result.errors : {});
      document.querySelector<HTMLElement>('dialog[open] [role="combobox"]')?.focus();
      return;
    }
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

  // In a "Solo los del padrón" form the reseller's fields appear once they hold a registry entry.
  const shown = askedFields(fields).filter(
    (field) => !(registryOnly && isRegistryField(field) && !hasRegistryFields(values)),
  );
  const firstTyped = shown.find((field) => !(registryOnly && isRegistryField(field)));

  return (
    <PlainFormDialog
      title={title}
      error={error}
      busy={busy}
      onSubmit={() => void submit()}
      onClose={onClose}
    >
      {registryOf && chosen ? (
        <div className="registry-chosen">
          <span>{registryOptionLabel(chosen)}</span>
          <PlainButton variant="outlined" size="small" type="button" onClick={changeChoice}>
            Cambiar
          </PlainButton>
        </div>
      ) : registryOf ? (
        <PlainRegistryCombobox
          search={search}
          autoFocus
          onChoose={choose}
          error={choiceError}
          {...(registryOnly ? { hint: MSG.registryOnlyHint } : {})}
        />
      ) : null}
      {shown.map((field) => (
        <PlainTextField
          key={field}
          name={field}
          label={NOMINEE_FIELD_LABELS[field]}
          mark={isFieldRequired(field, fields)}
          required={isFieldRequired(field, fields)}
          autoFocus={field === firstTyped && !registryOf}
          type={nomineeInputType(field)}
          value={values[field] ?? ''}
          error={errors[field]}
          onChange={(event) => change(field, event.target.value)}
          readOnly={
            (field === 'fiscalId' && fiscalIdReadOnly) ||
            ((chosen !== null || registryOnly) && isRegistryField(field))
          }
          {...nomineeInputAttributes(field)}
        />
      ))}
    </PlainFormDialog>
  );
}
