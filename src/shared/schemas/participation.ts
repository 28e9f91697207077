import { z } from 'zod';
import { MAX_NOMINEES_PER_CATEGORY } from '../constants.ts';
import { searchKey } from '../search.ts';
import { eventCategoryView } from './categories.ts';
import { eventExhibitorView } from './exhibitors.ts';

/** One exhibitor of the participation table. */
export const participationRow = eventExhibitorView.extend({
  invitation: eventExhibitorView.shape.invitation.extend({
    /** The mail server's reply when the invitation could not be delivered. */
    error: z.string().nullable(),
  }),
  lastSignedInAt: z.string().nullable(),
  /**
   * Nominations in the two default categories, 0 to 5 (0 where the event no longer has one):
   * kept for readers of the specification's shape; `categories` has every category.
   */
  nominations: z.object({ consumption: z.number().int(), value: z.number().int() }),
  /** Per category of the event, in its order: the nominations ("{k} de {n}") and its limit n. */
  categories: z.array(
    z.object({
      address: z.string(),
      nominations: z.number().int(),
      nomineeLimit: z.number().int(),
    }),
  ),
});
export type ParticipationRow = z.output<typeof participationRow>;

/** The figures above the table, in the order they are shown. */
export const PARTICIPATION_FIGURES = [
  'invited',
  'invitationDelivered',
  'invitationFailed',
  'signedIn',
  'votedConsumption',
  'votedValue',
  'noVotes',
] as const;
export type ParticipationFigure = (typeof PARTICIPATION_FIGURES)[number];

export const PARTICIPATION_FIGURE_LABELS: Record<ParticipationFigure, string> = {
  invited: 'Invitados',
  invitationDelivered: 'Invitación entregada',
  invitationFailed: 'Invitación con error',
  signedIn: 'Ingresaron',
  votedConsumption: 'Votaron en CONSUMO',
  votedValue: 'Votaron en VALOR AGREGADO',
  noVotes: 'Sin votos',
};

const count = z.number().int();

export const participationResponse = z.object({
  figures: z.object({
    invited: count,
    invitationDelivered: count,
    invitationFailed: count,
    signedIn: count,
    votedConsumption: count,
    votedValue: count,
    noVotes: count,
  } satisfies Record<ParticipationFigure, typeof count>),
  /**
   * The event's categories in their order, each with its figure "Votaron en {NOMBRE}: {voted}"
   * (`figures.votedConsumption`/`votedValue` stay for the two default categories).
   */
  categories: z.array(eventCategoryView.extend({ voted: count })),
  exhibitors: z.array(participationRow),
});
export type ParticipationResponse = z.output<typeof participationResponse>;

/** The columns of the table and of its export before the categories'. */
export const PARTICIPATION_MEMBER_COLUMNS = [
  'Nombre completo',
  'Email',
  'Empresa',
  'Invitación',
  'Último ingreso',
] as const;

/** The columns for an event of the two default categories; any other names its own. */
export const PARTICIPATION_COLUMNS = [
  ...PARTICIPATION_MEMBER_COLUMNS,
  'CONSUMO',
  'VALOR AGREGADO',
] as const;

/** The "Mostrar" filter of the table. */
export const PARTICIPATION_FILTERS = ['all', 'noVotes', 'incomplete', 'complete'] as const;
export type ParticipationFilter = (typeof PARTICIPATION_FILTERS)[number];

/** The export's query: the table's filter and search as the screen has them. */
export const participationExportQuery = z.object({
  show: z.enum(PARTICIPATION_FILTERS).default('all'),
  q: z.string().max(200).default(''),
});

export const PARTICIPATION_FILTER_LABELS: Record<ParticipationFilter, string> = {
  all: 'Todos',
  noVotes: 'Sin votos',
  incomplete: 'Incompletos',
  complete: 'Completos',
};

/** No nomination in any category. */
export const hasNoVotes = (row: ParticipationRow) =>
  row.categories.every((category) => category.nominations === 0);

/** A full list (the category's n nominations) in every category: the rest are "Incompletos". */
export const isComplete = (row: ParticipationRow) =>
  row.categories.every((category) => category.nominations >= category.nomineeLimit);

const matchesFilter: Record<ParticipationFilter, (row: ParticipationRow) => boolean> = {
  all: () => true,
  noVotes: hasNoVotes,
  incomplete: (row) => !isComplete(row),
  complete: isComplete,
};

/**
 * The rows the table shows for a filter and a search (by name, email or company, ignoring case
 * and accents). The export applies the same function, so the file holds what the screen shows.
 */
export function filterParticipation(
  rows: readonly ParticipationRow[],
  filter: ParticipationFilter,
  search: string,
): ParticipationRow[] {
  const term = searchKey(search.trim());
  return rows.filter(
    (row) =>
      matchesFilter[filter](row) &&
      (term === '' ||
        [row.fullName, row.email, row.company].some((text) => searchKey(text).includes(term))),
  );
}

/** "{k} de {n}": a category's column of the table (n is 5 in the default categories). */
export const nominationCountText = (count: number, nomineeLimit = MAX_NOMINEES_PER_CATEGORY) =>
  `${count} de ${nomineeLimit}`;

/** "Votaron en {NOMBRE}": a category's figure above the table. */
export const votedInCategoryLabel = (name: string) => `Votaron en ${name}`;

/**
 * Who a reminder by hand is for: those without a single nomination ("Recordar a quienes no
 * votaron"), or every exhibitor the filter "Incompletos" shows ("Recordar a los incompletos").
 */
export const REMINDER_AUDIENCES = ['noVotes', 'incomplete'] as const;
export type ReminderAudience = (typeof REMINDER_AUDIENCES)[number];
export const reminderQuery = z.object({ to: z.enum(REMINDER_AUDIENCES).default('noVotes') });

/** The buttons of the participation tab that open "Enviar recordatorio". */
export const REMINDER_BUTTON_LABELS: Record<ReminderAudience, string> = {
  noVotes: 'Recordar a quienes no votaron',
  incomplete: 'Recordar a los incompletos',
};

/** "{n} ({p} %)" beside a figure: its share of the invited exhibitors, whole percent. */
export function figureShareText(count: number, invited: number): string {
  return `${invited === 0 ? 0 : Math.round((count * 100) / invited)} %`;
}

/** "Enviar recordatorio": who gets it, and who is left out for having been reminded lately. */
export const reminderPlanResponse = z.object({
  /** Exhibitors of the audience who get (or got) the reminder. */
  recipients: z.number().int(),
  /** Exhibitors of the audience left out: an administrator reminded them in the last 12 hours. */
  remindedRecently: z.number().int(),
});
export type ReminderPlan = z.output<typeof reminderPlanResponse>;

/** The dialog's text before sending. */
export function reminderPlanText(plan: ReminderPlan): string {
  const skipped =
    plan.remindedRecently === 0
      ? ''
      : ` Se omiten ${plan.remindedRecently} que ya recibieron un recordatorio en las últimas 12 horas.`;
  return `Se enviará un recordatorio a ${plan.recipients} expositores.${skipped}`;
}
