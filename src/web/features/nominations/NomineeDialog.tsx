import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { Box, Button, TextField, Typography } from '@mui/material';
import { Controller, useForm } from 'react-hook-form';
import type { ZodType } from 'zod';
import {
  CORRECTION_REASON_LABELS,
  CORRECTION_REASONS,
  type CorrectionReason,
} from '../../../shared/correction-reasons.ts';
import { MSG } from '../../../shared/messages.ts';
import { voteCorrectionForm } from '../../../shared/schemas/results.ts';
import {
  emptyNominee,
  NOMINEE_FIELD_LABELS,
  nomineeInput,
  type Nominee,
  type NomineeInput,
} from '../../../shared/schemas/nominee.ts';
import {
  isFieldRequired,
  missingRequiredFields,
  type NomineeFieldSettings,
} from '../../../shared/nominee-fields.ts';
import { FormDialog } from '../../components/FormDialog.tsx';
import { FormTextField } from '../../components/FormTextField.tsx';
import { askedFields, NOMINEE_FIELDS, nomineeInputAttributes, nomineeInputType } from './fields.ts';
import { ApiError } from '../../lib/api.ts';
import {
  registryOptionLabel,
  type RegistrySearchEntry,
} from '../../../shared/schemas/registry-search.ts';
import { RegistryAutocomplete } from './RegistryAutocomplete.tsx';
import {
  hasRegistryFields,
  isRegistryField,
  valuesFromEntry,
  valuesWithoutEntry,
} from './registry-choice.ts';

/** The form's values; an administrator's correction adds why ("Motivo", "Detalle"). */
type FormInput = NomineeInput & { reason?: CorrectionReason | ''; detail?: string };
type FormOutput = Nominee & { reason?: CorrectionReason; detail?: string };
const CORRECTION_FIELDS = ['reason', 'detail'] as const;

/**
 * The nominee form, used by "Nominar a un reseller", "Editar reseller",
 * "Editar voto" and "Editar nominación". `onSave` rejects with ApiError to show the server's message.
 * It shows the fields the event asks for (`fields`, "Datos del nominado"), the required ones marked.
 * With `registryOnly` (an event of "Solo los del padrón") the reseller's own fields are never typed:
 * read-only as stored or as chosen in "Buscar en el padrón", which takes the message when saved
 * without one.
 */
export function NomineeDialog({
  title,
  initial,
  fiscalIdReadOnly = false,
  correction = false,
  description,
  failureMessage = MSG.genericError,
  fields,
  registrySearch = false,
  registryOnly = false,
  onSave,
  onClose,
}: {
  /** The event takes only registry resellers: their fields come from "Buscar en el padrón". */
  registryOnly?: boolean;
  /** "Buscar en el padrón" above the fields (the administrator's corrections). */
  registrySearch?: boolean;
  /** Which fields the event asks for and requires. */
  fields: NomineeFieldSettings;
  title: string;
  /** A line above the fields saying what is edited (a correction: whose vote, which place). */
  description?: string;
  initial?: NomineeInput;
  fiscalIdReadOnly?: boolean;
  /** An administrator's correction of a vote: asks for its reason too. */
  correction?: boolean;
  failureMessage?: string;
  onSave(values: FormOutput): Promise<void>;
  onClose(): void;
}) {
  const [error, setError] = useState<string | null>(null);
  // Both schemas read and give the form's values: the correction's adds "Motivo" and "Detalle".
  const base: ZodType<FormOutput, FormInput> = correction ? voteCorrectionForm : nomineeInput;
  // The event's required fields, as the server checks them.
  const schema = base.superRefine((value, ctx) => {
    for (const [field, message] of Object.entries(missingRequiredFields(value, fields))) {
      ctx.addIssue({ code: 'custom', path: [field], message });
    }
  });
  const form = useForm<FormInput, unknown, FormOutput>({
    resolver: zodResolver(schema),
    defaultValues: {
      ...(initial ?? emptyNominee),
      ...(correction ? { reason: '', detail: '' } : {}),
    },
    mode: 'onSubmit',
  });

  const [chosen, setChosen] = useState<RegistrySearchEntry | null>(null);
  const [choiceError, setChoiceError] = useState<string | undefined>(undefined);

  function applyValues(values: NomineeInput) {
    for (const field of NOMINEE_FIELDS) {
      form.setValue(field, values[field] ?? '', { shouldDirty: true });
    }
  }

  function choose(entry: RegistrySearchEntry) {
    applyValues(valuesFromEntry(entry, form.getValues()));
    setChosen(entry);
    setChoiceError(undefined);
  }

  function changeChoice() {
    applyValues(valuesWithoutEntry(form.getValues()));
    setChosen(null);
  }

  const submit = form.handleSubmit(async (values) => {
    setError(null);
    try {
      await onSave(values);
    } catch (caught) {
      if (caught instanceof ApiError && caught.status >= 400 && caught.status < 500) {
        setError(caught.message);
        for (const [field, message] of Object.entries(caught.fields)) {
          if (NOMINEE_FIELDS.includes(field as keyof Nominee)) {
            form.setError(field as keyof Nominee, { message });
          } else if (correction && (CORRECTION_FIELDS as readonly string[]).includes(field)) {
            form.setError(field as (typeof CORRECTION_FIELDS)[number], { message });
          }
        }
      } else {
        setError(failureMessage);
      }
    }
  });

  // In a "Solo los del padrón" form the reseller's fields appear once they hold a registry entry.
  const resellerShown = !registryOnly || hasRegistryFields(form.watch());
  const shown = askedFields(fields).filter((field) => resellerShown || !isRegistryField(field));

  return (
    <FormDialog
      open
      title={title}
      error={error}
      busy={form.formState.isSubmitting}
      onSubmit={(event) => {
        if (registryOnly && !hasRegistryFields(form.getValues())) {
          // Nothing chosen: the reseller's fields are not shown, the search takes the message.
          setChoiceError(MSG.registryChoiceRequired);
          return;
        }
        void submit(event);
      }}
      onClose={onClose}
    >
      {description ? <Typography sx={{ fontWeight: 500 }}>{description}</Typography> : null}
      {registrySearch && chosen ? (
        <Box
          sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 1 }}
        >
          <Typography>{registryOptionLabel(chosen)}</Typography>
          <Button variant="outlined" size="small" onClick={changeChoice}>
            Cambiar
          </Button>
        </Box>
      ) : registrySearch ? (
        <RegistryAutocomplete
          onChoose={choose}
          error={choiceError}
          {...(registryOnly ? { hint: MSG.registryOnlyHint } : {})}
        />
      ) : null}
      {shown.map((field, index) => (
        <FormTextField
          key={field}
          control={form.control}
          name={field}
          label={NOMINEE_FIELD_LABELS[field]}
          required={isFieldRequired(field, fields)}
          autoFocus={index === 0}
          type={nomineeInputType(field)}
          slotProps={{
            htmlInput: {
              ...nomineeInputAttributes(field),
              ...((field === 'fiscalId' && fiscalIdReadOnly) ||
              ((chosen !== null || registryOnly) && isRegistryField(field))
                ? { readOnly: true }
                : {}),
            },
          }}
        />
      ))}
      {correction ? (
        <>
          <Controller
            control={form.control}
            name="reason"
            render={({ field, fieldState }) => (
              <TextField
                select
                label="Motivo"
                required
                fullWidth
                value={field.value ?? ''}
                onChange={field.onChange}
                onBlur={field.onBlur}
                inputRef={field.ref}
                error={Boolean(fieldState.error)}
                helperText={fieldState.error?.message}
                slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
              >
                <option value="" />
                {CORRECTION_REASONS.map((reason) => (
                  <option key={reason} value={reason}>
                    {CORRECTION_REASON_LABELS[reason]}
                  </option>
                ))}
              </TextField>
            )}
          />
          <FormTextField
            control={form.control}
            name="detail"
            label="Detalle"
            required={form.watch('reason') === 'other'}
            slotProps={{ htmlInput: { maxLength: 500 } }}
          />
        </>
      ) : null}
    </FormDialog>
  );
}
