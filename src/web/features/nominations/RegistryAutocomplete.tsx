import { Autocomplete, TextField } from '@mui/material';
import { useEffect, useRef, useState } from 'react';
import { searchRegistryAsAdmin } from '../../../shared/api/registry-search.ts';
import {
  registryOptionLabel,
  type RegistrySearchEntry,
} from '../../../shared/schemas/registry-search.ts';
import { call } from '../../lib/api.ts';

/** How long typing must pause before the search is sent. */
const TYPING_PAUSE_MS = 150;

/**
 * "Buscar en el padrón" in the administrator's corrections ("Editar voto", "Editar nominación"):
 * MUI's Autocomplete (the WAI-ARIA combobox pattern) over the registry only. An administrator's
 * search has no "Mis nominaciones anteriores": the registry is the programme's, the earlier
 * nominations are each exhibitor's (decision 0030).
 */
export function RegistryAutocomplete({
  onChoose,
  hint = 'Nombre, razón social o ID fiscal (desde 2 caracteres).',
  error,
}: {
  onChoose(entry: RegistrySearchEntry): void;
  /** The line under the field (in a "Solo los del padrón" event, that only the registry counts). */
  hint?: string;
  /** Its message, in the hint's place (a "Solo los del padrón" form saved before a choice). */
  error?: string | undefined;
}) {
  const [text, setText] = useState('');
  const [options, setOptions] = useState<RegistrySearchEntry[]>([]);
  const latest = useRef(0);

  useEffect(() => {
    const request = ++latest.current;
    const timer = setTimeout(() => {
      call(searchRegistryAsAdmin, { query: { q: text } })
        .then((found) => {
          if (request === latest.current) setOptions(found.registry);
        })
        .catch(() => {
          if (request === latest.current) setOptions([]);
        });
    }, TYPING_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [text]);

  return (
    <Autocomplete<RegistrySearchEntry>
      options={options}
      // The list inside the dialog, not in a portal at the page's end: outside every landmark
      // (axe's "region"), and outside the dialog a screen reader is held in.
      disablePortal
      // The server filters and ranks; the list shows its answer as it is.
      filterOptions={(all) => all}
      getOptionLabel={registryOptionLabel}
      isOptionEqualToValue={(option, value) => option.fiscalId === value.fiscalId}
      value={null}
      inputValue={text}
      onInputChange={(_event, value, reason) => {
        if (reason !== 'reset') setText(value);
      }}
      onChange={(_event, entry) => {
        if (entry) onChoose(entry);
      }}
      noOptionsText={
        text.trim().length < 2 ? 'Escriba al menos 2 caracteres.' : 'Sin resultados en el padrón.'
      }
      renderInput={(params) => (
        <TextField
          {...params}
          label="Buscar en el padrón"
          error={Boolean(error)}
          helperText={error ?? hint}
        />
      )}
    />
  );
}
