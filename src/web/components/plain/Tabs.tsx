import { useRef, type KeyboardEvent } from 'react';

/**
 * Tabs of equal width with the selected one underlined, as MUI's `Tabs variant="fullWidth"`:
 * a tablist whose tabs control `panel-{value}`; the arrow keys, Home and End move focus between
 * them, and a click, Enter or Space selects one (as MUI's).
 */
export function PlainTabs<Value extends string>({
  label,
  tabs,
  value,
  onChange,
}: {
  label: string;
  tabs: readonly { value: Value; label: string }[];
  value: Value;
  onChange(value: Value): void;
}) {
  const list = useRef<HTMLDivElement>(null);
  function onKeyDown(event: KeyboardEvent<HTMLButtonElement>, index: number) {
    const last = tabs.length - 1;
    const next =
      event.key === 'ArrowRight'
        ? index === last
          ? 0
          : index + 1
        : event.key === 'ArrowLeft'
          ? index === 0
            ? last
            : index - 1
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? last
              : null;
    if (next === null) return;
    event.preventDefault();
    list.current?.querySelectorAll<HTMLButtonElement>('[role="tab"]')[next]?.focus();
  }
  return (
    <div ref={list} role="tablist" aria-label={label} className="plain-tabs">
      {tabs.map((tab, index) => {
        const selected = tab.value === value;
        return (
          <button
            key={tab.value}
            type="button"
            role="tab"
            id={`tab-${tab.value}`}
            aria-controls={`panel-${tab.value}`}
            aria-selected={selected}
            tabIndex={selected ? 0 : -1}
            className="plain-tab"
            onClick={() => onChange(tab.value)}
            onKeyDown={(event) => onKeyDown(event, index)}
          >
            {tab.label}
          </button>
        );
      })}
    </div>
  );
}
