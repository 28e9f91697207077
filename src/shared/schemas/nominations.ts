import { z } from 'zod';
import { MSG } from '../messages.ts';
import { categoryField, digitsField, idParam, whenMissing } from './common.ts';
import { nomineeFieldSettings } from '../nominee-fields.ts';
import { NOMINABLE_RESELLERS } from '../registry.ts';
import { nomineeInput, nomineeView } from './nominee.ts';
import { eventCategoryView } from './categories.ts';
import { exhEventSummary } from './exh-events.ts';

/**
 * The list version a write is based on (nomination_lists.version; 0 before the first write).
 * A write based on an older version is refused with 409 `stale_list`.
 */
export const listVersion = z
  .number({ error: whenMissing(MSG.invalidInput) })
  .int(MSG.invalidInput)
  .min(0, MSG.invalidInput);

/** One exhibitor's list in one category, as stored, with the version to base the next write on. */
export const nominationList = z.object({
  category: categoryField,
  version: z.number().int(),
  /** When the list was last saved (ISO instant); null before its first save. */
  savedAt: z.string().nullable(),
  nominees: z.array(nomineeView),
  /** Present when the organisation annulled the list: its reason (the list cannot be changed). */
  annulledReason: z.string().optional(),
});
export type NominationList = z.output<typeof nominationList>;

// The exhibitor's list of events, in a module of its own: their "Mis eventos" screen loads it
// without the nomination screen's schemas.
export {
  exhEventSummary,
  exhEventsResponse,
  type ExhEventSummary,
  type ExhEventsResponse,
} from './exh-events.ts';

/**
 * The nomination screen: the event, whether the SERVER considers voting open, the event's zone and
 * closing hour (the deadline ends then there, wherever the exhibitor is) and both lists.
 */
export const exhEventResponse = exhEventSummary.extend({
  votingOpen: z.boolean(),
  /** The event's zone: its deadline and every saved instant are shown in it. */
  timeZone: z.string(),
  /** Which of the nominee form's fields the event asks for ("Datos del nominado"). */
  nomineeFields: nomineeFieldSettings,
  /** "Hora de cierre" of the deadline day, `HH:MM` in `timeZone`. */
  closeTime: z.string(),
  /**
   * "Resellers nominables": with `registry` ("Solo los del padrón") the nominee form offers only
   * "Buscar en el padrón", and the reseller's own fields come from the chosen entry.
   */
  nominableResellers: z.enum(NOMINABLE_RESELLERS),
  /** Every category's list by its address (the two default addresses are always present). */
  lists: z.object({ consumption: nominationList, value: nominationList }).catchall(nominationList),
  /** The event's categories in their order (address, name, description, limit, scoring). */
  categories: z.array(eventCategoryView),
  /**
   * The latest change an administrator made to these lists (a correction, a merge or its undo),
   * shown above them as "Modificado por la organización el {d-m-yyyy HH:mm}: {motivo}"; absent
   * when there is none.
   */
  organizationChange: z.object({ at: z.string(), reason: z.string() }).optional(),
  /**
   * Each instant above (every list's `savedAt`, `organizationChange.at`) as the screen shows it in
   * `timeZone` (`d-m-yyyy HH:mm`), keyed by the instant. Written here because a phone's first use of
   * the browser's date formatting (Intl) costs more main-thread time than the rest of the screen's
   * first draw; the screen formats only what a save answers later.
   */
  instantTexts: z.record(z.string(), z.string()),
});
export type ExhEventResponse = z.output<typeof exhEventResponse>;

export const exhEventParams = z.object({ eventId: idParam });
export const exhListParams = exhEventParams.extend({ category: categoryField });
export const exhNomineeParams = exhListParams.extend({ fiscalId: digitsField(20) });

export const addNomineeRequest = nomineeInput.extend({ version: listVersion });
export type AddNomineeRequest = z.input<typeof addNomineeRequest>;

/** The same nine fields; the fiscal id must be the one in the path (it is read-only here). */
export const editNomineeRequest = nomineeInput.extend({ version: listVersion });
export type EditNomineeRequest = z.input<typeof editNomineeRequest>;

export const MOVE_DIRECTIONS = ['up', 'down'] as const;
export type MoveDirection = (typeof MOVE_DIRECTIONS)[number];

export const moveNomineeRequest = z.object({
  direction: z.enum(MOVE_DIRECTIONS),
  version: listVersion,
});
export type MoveNomineeRequest = z.input<typeof moveNomineeRequest>;

/** DELETE carries the version in the query string (`?version=N`). */
export const removeNomineeQuery = z.object({
  version: z
    .string(MSG.invalidInput)
    .regex(/^\d{1,9}$/, MSG.invalidInput)
    .transform(Number),
});
