import { FormControl, FormLabel, Stack, TextField } from '@mui/material';
import {
  CONFIGURABLE_NOMINEE_FIELDS,
  FIELD_REQUIREMENT_LABELS,
  FIELD_REQUIREMENTS,
  type FieldRequirement,
  type NomineeFieldSettings,
} from '../../../shared/nominee-fields.ts';
import { NOMINEE_FIELD_LABELS } from '../../../shared/schemas/nominee.ts';

/**
 * "Datos del nominado" in the event dialogs: for each of the six contact fields of the nominee
 * form a select "Obligatorio" / "Opcional" / "No se pide". The reseller's name, legal name and
 * fiscal id are always asked, so they have none.
 */
export function NomineeFieldsSection({
  value,
  onChange,
}: {
  value: NomineeFieldSettings;
  onChange(next: NomineeFieldSettings): void;
}) {
  return (
    <FormControl component="fieldset">
      <FormLabel component="legend" sx={{ mb: 1.5 }}>
        Datos del nominado
      </FormLabel>
      <Stack spacing={2}>
        {CONFIGURABLE_NOMINEE_FIELDS.map((field) => (
          <TextField
            key={field}
            select
            fullWidth
            size="small"
            label={NOMINEE_FIELD_LABELS[field]}
            name={`nomineeFields.${field}`}
            value={value[field]}
            onChange={(change) =>
              onChange({ ...value, [field]: change.target.value as FieldRequirement })
            }
            slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
          >
            {FIELD_REQUIREMENTS.map((requirement) => (
              <option key={requirement} value={requirement}>
                {FIELD_REQUIREMENT_LABELS[requirement]}
              </option>
            ))}
          </TextField>
        ))}
      </Stack>
    </FormControl>
  );
}
