import { AUDIT_ACTIONS } from './audit-entries.ts';

/**
 * The actions of an event's history ("Historial"), as the "Acción" column and its filter name
 * them (from the audit table, `AUDIT_ACTIONS`). Entries of other actions still show, under their
 * code.
 */
export const HISTORY_ACTION_LABELS: Record<string, string> = Object.fromEntries(
  Object.entries(AUDIT_ACTIONS)
    .filter(([, definition]) => definition.inHistory)
    .map(([action, definition]) => [action, definition.label]),
);

export const HISTORY_PAGE_SIZE = 50;
