import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import {
  REGISTRY_SEARCH_MIN_LENGTH,
  registryOptionLabel,
  type RegistrySearchEntry,
  type RegistrySearchResponse,
} from '../../../shared/schemas/registry-search.ts';

/** How long typing must pause before the search is sent. */
const TYPING_PAUSE_MS = 150;

export const EARLIER_GROUP_LABEL = 'Mis nominaciones anteriores';
const REGISTRY_GROUP_LABEL = 'Padrón del programa';
export const REGISTRY_SEARCH_HINT = 'Nombre, razón social o ID fiscal (desde 2 caracteres).';

/**
 * "Buscar en el padrón" in plain elements (the exhibitor's screens carry no MUI), on the WAI-ARIA
 * combobox pattern: the text field is the combobox, the list a listbox of options in up to two
 * groups; Arrow keys move the active option (aria-activedescendant), Enter chooses it, Escape
 * closes the list (and only a second Escape closes the dialog). The list opens on a tap or on
 * ArrowDown even when nothing is typed, so that "Mis nominaciones anteriores" is two taps away.
 */
export function PlainRegistryCombobox({
  search,
  autoFocus = false,
  hint = REGISTRY_SEARCH_HINT,
  error,
  onChoose,
}: {
  search(q: string): Promise<RegistrySearchResponse>;
  autoFocus?: boolean;
  /** The line under the field (what to type; in a "Solo los del padrón" event, that only the registry counts). */
  hint?: string;
  /** Its message, as a field's (a "Solo los del padrón" form saved before a choice). */
  error?: string | undefined;
  onChoose(entry: RegistrySearchEntry): void;
}) {
  const id = useId();
  const listId = `${id}-list`;
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  const [answer, setAnswer] = useState<RegistrySearchResponse>({ registry: [], earlier: [] });
  const [active, setActive] = useState(-1);
  const [searched, setSearched] = useState(false);
  const latest = useRef(0);
  const input = useRef<HTMLInputElement>(null);

  // After the dialog's showModal() (a layout effect of the dialog, which runs after this field
  // mounted and would move the focus to its own first stop): the search takes the focus.
  useEffect(() => {
    if (autoFocus) input.current?.focus();
  }, [autoFocus]);

  useEffect(() => {
    const request = ++latest.current;
    const timer = setTimeout(
      () => {
        search(text)
          .then((found) => {
            // An older answer arriving after a newer one is dropped.
            if (request !== latest.current) return;
            setAnswer(found);
            setSearched(true);
            setActive(-1);
          })
          .catch(() => {
            if (request === latest.current) setAnswer({ registry: [], earlier: [] });
          });
      },
      text === '' ? 0 : TYPING_PAUSE_MS,
    );
    return () => clearTimeout(timer);
  }, [text, search]);

  const options = [...answer.earlier, ...answer.registry];

  // The active option stays in view as the arrows move through a list taller than the screen.
  useEffect(() => {
    if (active >= 0)
      document.getElementById(`${id}-option-${active}`)?.scrollIntoView?.({ block: 'nearest' });
  }, [active, id]);
  const expanded = open && options.length > 0;
  const optionId = (index: number) => `${id}-option-${index}`;
  const typedEnough = text.trim().length >= REGISTRY_SEARCH_MIN_LENGTH;

  function choose(entry: RegistrySearchEntry) {
    setOpen(false);
    onChoose(entry);
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      if (!open) {
        setOpen(true);
        setActive(event.key === 'ArrowDown' ? 0 : options.length - 1);
        return;
      }
      if (options.length === 0) return;
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((current) => (current + step + options.length) % options.length);
    } else if (event.key === 'Enter') {
      // Never submits the form from here: Enter chooses, or does nothing.
      event.preventDefault();
      const entry = options[active];
      if (expanded && entry) choose(entry);
    } else if (event.key === 'Escape' && expanded) {
      event.preventDefault();
      event.stopPropagation();
      setOpen(false);
      setActive(-1);
    }
  }

  const status = !searched
    ? ''
    : typedEnough && options.length === 0
      ? 'Sin resultados en el padrón.'
      : expanded
        ? `${options.length} ${options.length === 1 ? 'resultado' : 'resultados'}.`
        : '';

  function group(label: string, entries: RegistrySearchEntry[], offset: number) {
    if (entries.length === 0) return null;
    return (
      <div role="group" aria-labelledby={`${id}-${offset}-label`}>
        <div id={`${id}-${offset}-label`} role="presentation" className="registry-group">
          {label}
        </div>
        {entries.map((entry, index) => {
          const position = offset + index;
          return (
            <div
              key={`${label}-${entry.fiscalId}`}
              id={optionId(position)}
              role="option"
              aria-selected={position === active}
              className="registry-option"
              // Keeps the focus in the field, so the list's state stays the field's.
              onMouseDown={(event) => event.preventDefault()}
              onClick={() => choose(entry)}
            >
              {registryOptionLabel(entry)}
            </div>
          );
        })}
      </div>
    );
  }

  return (
    <div className="plain-field registry-combobox">
      <label htmlFor={id}>Buscar en el padrón</label>
      <input
        ref={input}
        id={id}
        type="text"
        role="combobox"
        autoComplete="off"
        aria-autocomplete="list"
        aria-expanded={expanded}
        aria-controls={listId}
        aria-activedescendant={expanded && active >= 0 ? optionId(active) : undefined}
        aria-describedby={error ? `${id}-message ${id}-hint` : `${id}-hint`}
        aria-invalid={error ? true : undefined}
        maxLength={100}
        value={text}
        onChange={(event) => {
          setText(event.target.value);
          setOpen(true);
        }}
        onClick={() => setOpen(true)}
        onBlur={() => setOpen(false)}
        onKeyDown={onKeyDown}
      />
      {error ? (
        <p id={`${id}-message`} className="plain-field-message">
          {error}
        </p>
      ) : null}
      <p id={`${id}-hint`} className="registry-hint">
        {hint}
      </p>
      <div
        id={listId}
        role="listbox"
        aria-label="Buscar en el padrón"
        className="registry-listbox"
        hidden={!expanded}
      >
        {group(EARLIER_GROUP_LABEL, answer.earlier, 0)}
        {group(REGISTRY_GROUP_LABEL, answer.registry, answer.earlier.length)}
      </div>
      <div role="status" className="visually-hidden">
        {status}
      </div>
    </div>
  );
}
