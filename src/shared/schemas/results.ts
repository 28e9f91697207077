import { z } from 'zod';
import { CORRECTION_REASONS } from '../correction-reasons.ts';
import { DUPLICATE_REASONS } from '../duplicate-reasons.ts';
import { MSG } from '../messages.ts';
import { categoryField, digitsField, idParam, whenMissing } from './common.ts';
import { listVersion } from './nominations.ts';
import { nomineeInput, nomineeView } from './nominee.ts';

export const rankingParams = z.object({ eventId: idParam, category: categoryField });

export const nomineeVotesParams = z.object({
  eventId: idParam,
  category: categoryField,
  fiscalId: digitsField(20),
});

export const exhibitorVotesParams = z.object({ eventId: idParam, exhibitorId: idParam });

export const voteEditParams = z.object({
  eventId: idParam,
  exhibitorId: idParam,
  category: categoryField,
  order: z.coerce.number().int().min(1).max(10),
});

/**
 * What separated a ranking row from the row above it: the first criterion of the ranking order on
 * which they differ, or "tied" when none does (they share a position). The first row has none.
 */
export const TIE_BREAKS = ['points', 'places', 'nominations', 'earliest', 'tied'] as const;
export type TieBreak = (typeof TIE_BREAKS)[number];

/** One row of a category ranking: the earliest nomination's data plus the points and place. */
export const rankingRow = nomineeView.omit({ order: true }).extend({
  position: z.number().int(),
  points: z.number().int(),
  nominations: z.number().int(),
  /** How many exhibitors put this nominee 1st, 2nd … 5th. */
  p1: z.number().int(),
  p2: z.number().int(),
  p3: z.number().int(),
  p4: z.number().int(),
  p5: z.number().int(),
  /** How many put it 1st … n° in a category of n nominees ("1°" … "{n}°"). */
  places: z.array(z.number().int()),
  tieBreak: z.enum(TIE_BREAKS).nullable(),
});
export type RankingRow = z.output<typeof rankingRow>;

/** Rows of a ranking per page of the screen (the export has them all). */
export const RANKING_PAGE_SIZE = 100;

/** `?page=N`, 1-based, 1 when absent. */
export const rankingQuery = z.object({
  page: z
    .string(MSG.invalidInput)
    .regex(/^[1-9]\d{0,5}$/, MSG.invalidInput)
    .transform(Number)
    .default(1),
});

/** One page of a ranking; `total` counts the rows of every page (one per fiscal id). */
export const rankingResponse = z.object({
  eventName: z.string(),
  /** Voting is still open (by the server's clock and zone): the ranking may still change. */
  votingOpen: z.boolean(),
  rows: z.array(rankingRow),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
  /** Lists of the category the organisation annulled ("Listas anuladas: {n}"): not counted. */
  annulledLists: z.number().int(),
});
export type RankingResponse = z.output<typeof rankingResponse>;

/**
 * One exhibitor's entry for a nominee: what the admin sees and may edit, with who voted (name and
 * company), at which place of their list (`order`), and the version of the exhibitor's list it was
 * read from (a correction carries it back).
 */
export const nomineeVote = nomineeView.extend({
  exhibitorId: z.string(),
  exhibitorName: z.string(),
  listVersion: z.number().int(),
  exhibitorCompany: z.string(),
});
export type NomineeVote = z.output<typeof nomineeVote>;

export const nomineeVotesResponse = z.object({ votes: z.array(nomineeVote) });
export type NomineeVotesResponse = z.output<typeof nomineeVotesResponse>;

/** An annulled list: when the organisation annulled it, and why. */
export const listAnnulment = z.object({ at: z.string(), reason: z.string() });
export type ListAnnulment = z.output<typeof listAnnulment>;

/** One exhibitor's list of one category, to annul or restore. */
export const listAnnulParams = z.object({
  eventId: idParam,
  exhibitorId: idParam,
  category: categoryField,
});

/** "Anular votos": the required "Motivo". */
export const listAnnulRequest = z.object({
  reason: z
    .string({ error: whenMissing(MSG.annulReasonRequired) })
    .trim()
    .min(1, MSG.annulReasonRequired)
    .max(500, MSG.invalidInput),
});
export type ListAnnulInput = z.input<typeof listAnnulRequest>;

export const listAnnulResponse = z.object({ annulment: listAnnulment.nullable() });
export type ListAnnulResponse = z.output<typeof listAnnulResponse>;

/** One exhibitor's list of one category, as the exhibitor-votes page shows it. */
export const exhibitorVotesList = z.object({
  nominees: z.array(nomineeView),
  /** The version the list was read at (0 before its first save); a correction carries it back. */
  version: z.number().int(),
  /** The list's annulment (when and why), or null while the list counts. */
  annulment: listAnnulment.nullable(),
});
export type ExhibitorVotesList = z.output<typeof exhibitorVotesList>;

export const exhibitorVotesResponse = z.object({
  exhibitor: z.object({ id: z.string(), fullName: z.string(), email: z.string() }),
  /** Every category of the event, keyed by its address (the event's categories give the order). */
  lists: z.record(z.string(), exhibitorVotesList),
});
export type ExhibitorVotesResponse = z.output<typeof exhibitorVotesResponse>;

const correctionFields = nomineeInput.extend({
  // The dialog's select sends '' until a reason is chosen: the same message as a missing one.
  reason: z.enum(CORRECTION_REASONS, {
    error: (issue) =>
      issue.input === undefined || issue.input === '' ? MSG.chooseReason : undefined,
  }),
  detail: z.string().trim().max(500, MSG.invalidInput).default(''),
});

function requireDetailOfOther(
  value: z.output<typeof correctionFields>,
  ctx: z.RefinementCtx<z.output<typeof correctionFields>>,
) {
  if (value.reason === 'other' && value.detail === '') {
    ctx.addIssue({ code: 'custom', path: ['detail'], message: MSG.requiredField });
  }
}

/**
 * The correction form: the nominee's fields plus why ("Motivo"); "Otro" needs its "Detalle", the
 * other reasons may add one.
 */
export const voteCorrectionForm = correctionFields.superRefine(requireDetailOfOther);

/**
 * An administrator's correction as sent: the form plus the version of the list the administrator
 * read. The correction names a place in the list, so a list changed since (an entry moved or
 * removed) is refused with 409 `stale_list` rather than corrected at a place that now holds
 * another nominee.
 */
export const voteEditRequest = correctionFields
  .extend({ version: listVersion })
  .superRefine(requireDetailOfOther);
export type VoteEditInput = z.input<typeof voteEditRequest>;
export type VoteEdit = z.output<typeof voteEditRequest>;

export const voteEditResponse = z.object({ nominee: nomineeView, version: z.number().int() });
export type VoteEditResponse = z.output<typeof voteEditResponse>;

export const duplicatesParams = rankingParams;

/**
 * One fiscal id of a group of possible duplicates, with the data its ranking row shows. A fiscal id
 * of the registry ("Padrón") is named as the registry has it; one without votes in the category
 * (offered as the target of a merge) has 0 points and no position.
 */
export const duplicateNominee = z.object({
  fiscalId: z.string(),
  name: z.string(),
  registeredName: z.string(),
  points: z.number().int(),
  position: z.number().int().nullable(),
  inRegistry: z.boolean(),
});

/** Fiscal ids that are probably one reseller, most points first, with every rule that joined them. */
export const duplicateGroup = z.object({
  nominees: z.array(duplicateNominee),
  reasons: z.array(z.enum(DUPLICATE_REASONS)),
});
export type DuplicateGroupView = z.output<typeof duplicateGroup>;

export const duplicatesResponse = z.object({ groups: z.array(duplicateGroup) });
export type DuplicatesResponse = z.output<typeof duplicatesResponse>;

/** "Every vote for `from` is a vote for `into`." At most a group's worth of ids. */
export const mergeInput = z.object({
  into: digitsField(20),
  from: z.array(digitsField(20)).min(1, MSG.requiredField).max(50, MSG.invalidInput),
});
export type MergeInput = z.output<typeof mergeInput>;

/** A row of the ranking as the merge preview shows it, before or after. */
export const mergePreviewRow = z.object({
  fiscalId: z.string(),
  position: z.number().int(),
  points: z.number().int(),
});

/**
 * The top of the ranking (MERGE_PREVIEW_TOP rows) plus every row of the merged ids, before and
 * after the merge.
 */
export const mergePreviewResponse = z.object({
  before: z.array(mergePreviewRow),
  after: z.array(mergePreviewRow),
});
export type MergePreviewResponse = z.output<typeof mergePreviewResponse>;
export const MERGE_PREVIEW_TOP = 10;

export const mergeResponse = z.object({
  /** The audit entry of the merge: what "Deshacer" undoes. */
  auditId: z.number().int(),
  /** How many exhibitors' lists it rewrote. */
  lists: z.number().int(),
});

export const undoParams = z.object({
  eventId: idParam,
  auditId: z
    .string()
    .regex(/^[1-9]\d{0,15}$/, MSG.apiNotFound)
    .transform(Number),
});
export const undoResponse = z.object({ auditId: z.number().int(), lists: z.number().int() });

export const historyParams = z.object({ eventId: idParam });

/** `?before=<id>` (the cursor: entries older than that one), `?action=`, `?q=` (search). */
export const historyQuery = z.object({
  before: z
    .string(MSG.invalidInput)
    .regex(/^[1-9]\d{0,15}$/, MSG.invalidInput)
    .transform(Number)
    .optional(),
  action: z
    .string(MSG.invalidInput)
    .regex(/^[a-z_.]{1,60}$/, MSG.invalidInput)
    .optional(),
  q: z.string(MSG.invalidInput).trim().max(100, MSG.invalidInput).optional(),
});

/** One change of the event's history; `detail` says what changed, before → after for votes. */
export const historyEntry = z.object({
  id: z.number().int(),
  at: z.string(),
  who: z.string(),
  action: z.string(),
  actionLabel: z.string(),
  detail: z.string(),
  /** A merge, which "Deshacer" may undo (refused if its votes changed since). */
  undoable: z.boolean(),
});
export type HistoryEntry = z.output<typeof historyEntry>;

/** Newest first; `nextBefore` is the cursor of the next (older) page, null on the last one. */
export const historyResponse = z.object({
  entries: z.array(historyEntry),
  nextBefore: z.number().int().nullable(),
});
export type HistoryResponse = z.output<typeof historyResponse>;
