import { z } from 'zod';
import { CATEGORY_LABELS } from './constants.ts';
import { CORRECTION_REASONS, CORRECTION_REASON_LABELS } from './correction-reasons.ts';
import { formatDisplayDate } from './dates.ts';
import { MSG } from './messages.ts';
import { NOMINABLE_RESELLERS, NOMINABLE_RESELLERS_LABELS } from './registry.ts';
import { REMINDER_KINDS, REMINDER_KIND_LABELS } from './schemas/events.ts';
import { NOMINEE_FIELD_LABELS, type Nominee } from './schemas/nominee.ts';
import { nomineeFieldChanges, nomineeFieldSettings } from './nominee-fields.ts';

/*
 * The audit log as a typed table: every action has one definition here, with the schema of the
 * details it stores, its Spanish label and how its "Detalle" reads. The server writes entries
 * through it (`recordAudit` takes `AuditDetails<action>`) and reads them back through it
 * (`readAuditEntry`): a stored entry whose details do not fit its schema is shown as unreadable,
 * never cast. Strings are plain `z.string()`: anonymising an event replaces personal values in
 * stored entries with a placeholder, and those entries must still read.
 */

/** One vote as a correction stores it: the nine fields of the nominee form. */
const nomineeSnapshot = z.object({
  name: z.string(),
  registeredName: z.string(),
  fiscalId: z.string(),
  contactName: z.string(),
  contactPosition: z.string(),
  phone: z.string(),
  email: z.string(),
  location: z.string(),
  city: z.string(),
});

/** One entry of a list as an exhibitor's save stores it: its place and the nine fields. */
const listEntry = nomineeSnapshot.extend({ order: z.number() });
type ListEntry = z.output<typeof listEntry>;

/** A stored nomination as a merge keeps it, to compare and to restore (database columns). */
export const storedVote = z.object({
  list_order: z.number(),
  fiscal_id: z.string(),
  name: z.string(),
  registered_name: z.string(),
  contact_name: z.string(),
  contact_position: z.string(),
  phone: z.string(),
  email: z.string(),
  location: z.string(),
  city: z.string(),
  nominated_at: z.string(),
  updated_at: z.string(),
});
export type StoredVote = z.output<typeof storedVote>;

/** A category's address (docs/decisions/0034): a default one or one made from a name. */
const category = z.string();

const mergeDetails = z.object({
  category,
  into: z.string(),
  from: z.array(z.string()),
  lists: z.array(
    z.object({
      exhibitorId: z.string(),
      before: z.array(storedVote),
      after: z.array(storedVote),
    }),
  ),
});
export type MergeDetails = z.output<typeof mergeDetails>;

/** A category as its history entries keep it (docs/decisions/0034). */
const categoryFacts = z.object({
  address: z.string(),
  name: z.string(),
  description: z.string(),
  nomineeLimit: z.number(),
  scoring: z.enum(['place', 'one']),
});
type CategoryFacts = z.output<typeof categoryFacts>;

const SCORING_LABELS = { place: 'Por puesto', one: 'Un punto por nominación' } as const;

/** "5 nominaciones por expositor, Por puesto". */
const categoryFactsText = (facts: CategoryFacts) =>
  `${countText(facts.nomineeLimit, 'nominación', 'nominaciones')} por expositor, ${SCORING_LABELS[facts.scoring]}`;

/** Each setting of a category that differs, "{campo}: {antes} → {después}". */
function categoryChanges(before: CategoryFacts, after: CategoryFacts): string[] {
  const changes: string[] = [];
  if (before.name !== after.name) changes.push(`Nombre: ${before.name} → ${after.name}`);
  if (before.description !== after.description) {
    changes.push(
      `Descripción: ${before.description === '' ? '(vacío)' : before.description} → ${after.description === '' ? '(vacío)' : after.description}`,
    );
  }
  if (before.nomineeLimit !== after.nomineeLimit) {
    changes.push(`Nominaciones por expositor: ${before.nomineeLimit} → ${after.nomineeLimit}`);
  }
  if (before.scoring !== after.scoring) {
    changes.push(`Puntaje: ${SCORING_LABELS[before.scoring]} → ${SCORING_LABELS[after.scoring]}`);
  }
  return changes;
}

/** "; n invitaciones sin enviar por el límite de envíos", or nothing when none was withheld. */
const withheldText = (withheld: number): string =>
  withheld === 0
    ? ''
    : withheld === 1
      ? '; 1 invitación sin enviar por el límite de envíos'
      : `; ${withheld} invitaciones sin enviar por el límite de envíos`;

/** A registry entry as its audit entries keep it: the registry form's nine fields. */
const registryEntry = z.object({
  fiscalId: z.string(),
  name: z.string(),
  registeredName: z.string(),
  location: z.string(),
  city: z.string(),
  contactName: z.string(),
  contactPosition: z.string(),
  phone: z.string(),
  email: z.string(),
});
type RegistryEntry = z.output<typeof registryEntry>;

const REGISTRY_FIELD_LABELS: Record<keyof RegistryEntry, string> = NOMINEE_FIELD_LABELS;

/** "Teléfono, Email": the form's labels of the fields an edit changed, or "sin cambios". */
function changedFields(before: RegistryEntry, after: RegistryEntry): string {
  const changed = (Object.keys(REGISTRY_FIELD_LABELS) as (keyof RegistryEntry)[]).filter(
    (field) => before[field] !== after[field],
  );
  return changed.length === 0
    ? 'sin cambios'
    : changed.map((field) => REGISTRY_FIELD_LABELS[field]).join(', ');
}

/** Event facts; `reminders` came later, so older entries may lack it. */
const eventFacts = z.object({
  name: z.string(),
  eventDate: z.string(),
  voteDeadline: z.string(),
  reminders: z.array(z.string()).optional(),
  /** "Resellers nominables" and "Validar CUIT" (issue 27; later entries). */
  nominableResellers: z.enum(NOMINABLE_RESELLERS).optional(),
  validateCuit: z.boolean().optional(),
  /** "Ocultar resultados hasta el cierre" (issue 28 item 4; later entries). */
  sealResults: z.boolean().optional(),
});
type EventFacts = z.output<typeof eventFacts>;

const listChange = z.object({
  exhibitorId: z.string(),
  category,
  before: z.array(listEntry),
  after: z.array(listEntry),
});

/**
 * An annulment or its reversal: whose list (`fullName`, anonymised with the event), the reason
 * typed (`annulReason`) and the list's entries, which neither changes.
 */
const listAnnulment = z.object({
  exhibitorId: z.string(),
  fullName: z.string(),
  category,
  annulReason: z.string(),
  entries: z.array(listEntry),
});

/** "la lista de Ana Pérez (3 votos)". */
const annulmentText = (details: { fullName: string; entries: readonly unknown[] }) =>
  `la lista de ${details.fullName} (${countText(details.entries.length, 'voto', 'votos')})`;

const nothing = z.object({});

const NOMINEE_FIELDS = nomineeSnapshot.keyof().options;

/** A category's name by its address, as the event has it now ("Historial" reads the event's). */
export type CategoryNamer = (address: string) => string;

/**
 * Without the event's categories: a default category by its label; another by its address, as its
 * entries recorded it.
 */
const defaultCategoryText: CategoryNamer = (value) =>
  Object.entries(CATEGORY_LABELS).find(([address]) => address === value)?.[1] ?? value;

/** The namer of an event's categories (address → name); an address it lacks falls back. */
export const categoryNamer =
  (names: ReadonlyMap<string, string>): CategoryNamer =>
  (address) =>
    names.get(address) ?? defaultCategoryText(address);
const nomineeText = (entry: { name: string; fiscalId: string }) =>
  `${entry.name} (${entry.fiscalId})`;

/** "1 lista", "2 listas": a count with its noun in the right number. */
export const countText = (count: number, singular: string, plural: string) =>
  `${count} ${count === 1 ? singular : plural}`;

/** A value as a change shows it: an emptied field reads as such, not as nothing. */
const valueText = (value: string) => (value === '' ? '(vacío)' : value);

/** "{campo}: {antes} → {después}" for every field of the nominee form that differs. */
function fieldChanges(before: Nominee, after: Nominee): string[] {
  return NOMINEE_FIELDS.filter((field) => before[field] !== after[field]).map(
    (field) =>
      `${NOMINEE_FIELD_LABELS[field]}: ${valueText(before[field])} → ${valueText(after[field])}`,
  );
}

/**
 * What a save did to a list, in one line: who was added, removed, moved to another place or
 * edited, matched by fiscal id (a list holds each id once). An entry counts as moved only when its
 * place among the entries of both lists changed: the places a removal or an addition shifts are
 * not news.
 */
export function listChangeText(before: readonly ListEntry[], after: readonly ListEntry[]): string {
  const was = new Map(before.map((entry) => [entry.fiscalId, entry]));
  const now = new Map(after.map((entry) => [entry.fiscalId, entry]));
  const keptBefore = before.filter((entry) => now.has(entry.fiscalId));
  const parts = before
    .filter((entry) => !now.has(entry.fiscalId))
    .map((entry) => `se quitó ${nomineeText(entry)} del puesto ${entry.order}`);
  let kept = 0;
  for (const entry of after) {
    const old = was.get(entry.fiscalId);
    if (!old) {
      parts.push(`se agregó ${nomineeText(entry)} en el puesto ${entry.order}`);
      continue;
    }
    if (keptBefore[kept++]?.fiscalId !== entry.fiscalId) {
      parts.push(`${nomineeText(old)} pasó del puesto ${old.order} al ${entry.order}`);
    }
    const changed = fieldChanges(old, entry);
    if (changed.length > 0) parts.push(`se modificó ${nomineeText(old)}: ${changed.join('; ')}`);
  }
  return parts.length > 0 ? parts.join('; ') : 'sin cambios';
}

const eventText = (facts: EventFacts) =>
  `${facts.name}, fecha del evento ${formatDisplayDate(facts.eventDate)}, fecha límite ${formatDisplayDate(
    facts.voteDeadline,
  )}`;

const isReminderKind = (kind: string): kind is (typeof REMINDER_KINDS)[number] =>
  (REMINDER_KINDS as readonly string[]).includes(kind);

/** The event's automatic reminders as the event dialog names them ("7 días antes, el día del cierre"). */
const remindersText = (kinds: readonly string[]) =>
  kinds
    .map((kind) =>
      isReminderKind(kind) ? REMINDER_KIND_LABELS[kind].replace(/^Recordar /, '') : kind,
    )
    .join(', ') || 'ninguno';

/**
 * A merge in one line: who was unified into whom and how many lists it changed, named as the
 * lists held them (fiscal ids alone say nothing to a committee). The undo reads the other way.
 */
function mergeText(details: MergeDetails, undone: boolean, categoryText: CategoryNamer): string {
  const names = new Map<string, string>();
  for (const list of details.lists) {
    for (const vote of [...list.before, ...list.after]) {
      if (!names.has(vote.fiscal_id)) names.set(vote.fiscal_id, vote.name);
    }
  }
  const named = (fiscalId: string) => {
    const name = names.get(fiscalId);
    return name ? `${name} (${fiscalId})` : fiscalId;
  };
  const from = details.from.map(named).join(', ');
  const into = named(details.into);
  return undone
    ? `${categoryText(details.category)}: ${into} → ${from}; ${countText(details.lists.length, 'lista restaurada', 'listas restauradas')}`
    : `${categoryText(details.category)}: ${from} → ${into}; ${countText(details.lists.length, 'lista modificada', 'listas modificadas')}`;
}

const EVENT_FIELD_TEXT: { label: string; text: (facts: EventFacts) => string }[] = [
  { label: 'Nombre', text: (facts) => facts.name },
  { label: 'Fecha del evento', text: (facts) => formatDisplayDate(facts.eventDate) },
  { label: 'Fecha límite', text: (facts) => formatDisplayDate(facts.voteDeadline) },
  { label: 'Recordatorios', text: (facts) => remindersText(facts.reminders ?? []) },
  {
    label: 'Resellers nominables',
    text: (facts) => NOMINABLE_RESELLERS_LABELS[facts.nominableResellers ?? 'any'],
  },
  { label: 'Validar CUIT', text: (facts) => (facts.validateCuit ? 'Sí' : 'No') },
  {
    label: 'Ocultar resultados hasta el cierre',
    text: (facts) => (facts.sealResults ? 'Sí' : 'No'),
  },
];

interface AuditActionDefinition<Schema extends z.ZodType> {
  /** The "Acción" column and the history's filter. */
  label: string;
  /** Shown in an event's "Historial" (account actions are not). */
  inHistory: boolean;
  details: Schema;
  /** The "Detalle" column: what the entry changed, in one line of Spanish. */
  detail: (details: z.output<Schema>, categoryText: CategoryNamer) => string;
}

/** A definition, with `text`: the "Detalle" of stored details, or undefined when they do not fit. */
const action = <Schema extends z.ZodType>(definition: AuditActionDefinition<Schema>) => ({
  ...definition,
  text(stored: unknown, categoryText: CategoryNamer = defaultCategoryText): string | undefined {
    const parsed = definition.details.safeParse(stored);
    return parsed.success ? definition.detail(parsed.data, categoryText) : undefined;
  },
});

export const AUDIT_ACTIONS = {
  'event.created': action({
    label: 'Evento creado',
    inHistory: true,
    details: eventFacts,
    detail: eventText,
  }),
  'event.updated': action({
    label: 'Evento modificado',
    inHistory: true,
    details: z.object({ before: eventFacts, after: eventFacts }),
    detail: ({ before, after }) =>
      EVENT_FIELD_TEXT.filter(({ text }) => text(before) !== text(after))
        .map(({ label, text }) => `${label}: ${text(before)} → ${text(after)}`)
        .join('; ') || 'sin cambios',
  }),
  'event.duplicated': action({
    label: 'Evento duplicado',
    inHistory: true,
    details: eventFacts.extend({
      from: z.string(),
      exhibitors: z.number(),
      invitationsSent: z.boolean(),
      /** Invitations not queued: the address had had its invitations for the hour (later entries). */
      invitationsWithheld: z.number().optional(),
    }),
    detail: (details) =>
      `${eventText(details)}; ${countText(details.exhibitors, 'expositor copiado', 'expositores copiados')}` +
      withheldText(details.invitationsWithheld ?? 0),
  }),
  'event.deleted': action({
    label: 'Evento eliminado',
    inHistory: false,
    details: eventFacts.extend({ exhibitors: z.number(), nominations: z.number() }),
    detail: (details) =>
      `${eventText(details)}; ${countText(details.exhibitors, 'expositor', 'expositores')}, ${countText(
        details.nominations,
        'nominación',
        'nominaciones',
      )}`,
  }),
  'event.nominee_fields_changed': action({
    label: 'Datos del nominado modificados',
    inHistory: true,
    details: z.object({ before: nomineeFieldSettings, after: nomineeFieldSettings }),
    detail: ({ before, after }) => nomineeFieldChanges(before, after).join('; ') || 'sin cambios',
  }),
  'category.created': action({
    label: 'Categoría creada',
    inHistory: true,
    details: z.object({ after: categoryFacts }),
    detail: ({ after }) => `${after.name}: ${categoryFactsText(after)}`,
  }),
  'category.updated': action({
    label: 'Categoría modificada',
    inHistory: true,
    details: z.object({ before: categoryFacts, after: categoryFacts }),
    detail: ({ before, after }) =>
      `${before.name}: ${categoryChanges(before, after).join('; ') || 'sin cambios'}`,
  }),
  'category.moved': action({
    label: 'Categoría movida',
    inHistory: true,
    details: z.object({ address: z.string(), name: z.string(), from: z.number(), to: z.number() }),
    detail: ({ name, from, to }) => `${name}: del lugar ${from} al ${to}`,
  }),
  'category.deleted': action({
    label: 'Categoría eliminada',
    inHistory: true,
    details: z.object({ before: categoryFacts }),
    detail: ({ before }) => `${before.name}: ${categoryFactsText(before)}`,
  }),
  'event.logo_replaced': action({
    label: 'Logo del evento reemplazado',
    inHistory: true,
    details: z.object({ bytes: z.number(), sha256: z.string() }),
    detail: ({ bytes }) => countText(bytes, 'byte', 'bytes'),
  }),
  'event.logo_removed': action({
    label: 'Logo del evento quitado',
    inHistory: true,
    details: nothing,
    detail: () => 'vuelve el logo del programa',
  }),
  'event.archived': action({
    label: 'Evento archivado',
    inHistory: true,
    details: nothing,
    detail: () => '',
  }),
  'event.unarchived': action({
    label: 'Evento desarchivado',
    inHistory: true,
    details: nothing,
    detail: () => '',
  }),
  'event.voting_closed': action({
    label: 'Votación cerrada',
    inHistory: true,
    details: z.object({
      voteDeadlineBefore: z.string(),
      voteDeadline: z.string(),
      closedAt: z.string().nullable(),
      remindersWithdrawn: z.number(),
    }),
    detail: ({ voteDeadlineBefore, voteDeadline, remindersWithdrawn }) =>
      `Fecha límite de votación: ${formatDisplayDate(voteDeadlineBefore)} → ${formatDisplayDate(voteDeadline)}; ${countText(remindersWithdrawn, 'recordatorio cancelado', 'recordatorios cancelados')}`,
  }),
  'event.results_viewed_early': action({
    label: 'Resultados vistos antes del cierre',
    inHistory: true,
    /** The "Motivo" typed in "¿Ver resultados antes del cierre?" (free text, scrubbed by anonymising). */
    details: z.object({ viewReason: z.string() }),
    detail: ({ viewReason }) => `Motivo: ${viewReason}`,
  }),
  'event.anonymised': action({
    label: 'Datos personales anonimizados',
    inHistory: true,
    details: nothing,
    detail: () => '',
  }),
  'exhibitor.added': action({
    label: 'Expositor agregado',
    inHistory: true,
    details: z.object({
      email: z.string(),
      createdExhibitor: z.boolean(),
      /** Null: the address had had its invitations for the hour, the invitation was not sent. */
      invitationId: z.string().nullable(),
    }),
    detail: ({ email, invitationId }) =>
      invitationId === null ? `${email}; invitación sin enviar por el límite de envíos` : email,
  }),
  'exhibitor.edited': action({
    label: 'Expositor modificado',
    inHistory: true,
    details: z.object({
      before: z.object({ fullName: z.string(), email: z.string(), company: z.string() }),
      after: z.object({ fullName: z.string(), email: z.string(), company: z.string() }),
      invitationId: z.string().nullish(),
    }),
    detail: ({ before, after }) =>
      (
        [
          ['Nombre', 'fullName'],
          ['Email', 'email'],
          ['Empresa', 'company'],
        ] as const
      )
        .filter(([, field]) => before[field] !== after[field])
        .map(
          ([label, field]) => `${label}: ${valueText(before[field])} → ${valueText(after[field])}`,
        )
        .join('; ') || 'sin cambios',
  }),
  'exhibitor.removed': action({
    label: 'Expositor quitado',
    inHistory: true,
    details: z.object({ email: z.string(), discardedNominations: z.number() }),
    detail: ({ email, discardedNominations }) =>
      `${email}; ${countText(discardedNominations, 'nominación descartada', 'nominaciones descartadas')}`,
  }),
  'exhibitor.invitation_resent': action({
    label: 'Invitación reenviada',
    inHistory: true,
    details: z.object({
      email: z.string(),
      invitationId: z.string(),
      previous: z.string().nullable(),
    }),
    detail: ({ email }) => email,
  }),
  'exhibitors.invited': action({
    label: 'Invitaciones pendientes enviadas',
    inHistory: true,
    details: z.object({ invited: z.number(), limited: z.number() }),
    detail: ({ invited, limited }) =>
      countText(invited, 'invitación enviada', 'invitaciones enviadas') +
      (limited === 0
        ? ''
        : `; ${countText(limited, 'invitación sin enviar', 'invitaciones sin enviar')} por el límite de envíos`),
  }),
  'exhibitors.imported': action({
    label: 'Expositores importados',
    inHistory: true,
    details: z.object({
      fileName: z.string(),
      added: z.array(z.string()),
      invitationsSent: z.boolean(),
      /** Invitations not queued: the address had had its invitations for the hour (later entries). */
      invitationsWithheld: z.number().optional(),
      summary: z.object({ nuevos: z.number(), yaEstaban: z.number(), conErrores: z.number() }),
    }),
    detail: ({ fileName, added, invitationsWithheld }) =>
      `${fileName}: ${countText(added.length, 'expositor agregado', 'expositores agregados')}` +
      withheldText(invitationsWithheld ?? 0),
  }),
  'exhibitors.reminded': action({
    label: 'Recordatorio enviado',
    inHistory: true,
    details: z.object({
      reminded: z.array(z.string()),
      /** "Recordar a los incompletos"; absent for "Recordar a quienes no votaron". */
      audience: z.literal('incomplete').optional(),
    }),
    detail: ({ reminded, audience }) =>
      (audience === 'incomplete' ? 'A los incompletos, ' : '') +
      `${countText(reminded.length, 'expositor', 'expositores')}: ${reminded.join(', ')}`,
  }),
  'exhibitors.invitations_resent': action({
    label: 'Invitaciones reenviadas',
    inHistory: true,
    /** `resent`: the addresses invited again; `limited`: selected ones left without room. */
    details: z.object({ resent: z.array(z.string()), limited: z.number() }),
    detail: ({ resent, limited }) =>
      `${countText(resent.length, 'invitación reenviada', 'invitaciones reenviadas')}: ${resent.join(', ')}` +
      (limited === 0
        ? ''
        : `; ${countText(limited, 'invitación sin enviar', 'invitaciones sin enviar')} por el límite de envíos`),
  }),
  'exhibitors.removed': action({
    label: 'Expositores quitados',
    inHistory: true,
    /** `removed`: the addresses of the exhibitors removed from the event. */
    details: z.object({ removed: z.array(z.string()), discardedNominations: z.number() }),
    detail: ({ removed, discardedNominations }) =>
      `${countText(removed.length, 'expositor quitado', 'expositores quitados')}: ${removed.join(', ')}; ${countText(discardedNominations, 'nominación descartada', 'nominaciones descartadas')}`,
  }),
  'nomination.add': action({
    label: 'Nominación agregada',
    inHistory: true,
    details: listChange,
    detail: (details, categoryText) =>
      `${categoryText(details.category)}: ${listChangeText(details.before, details.after)}`,
  }),
  'nomination.edit': action({
    label: 'Nominación modificada',
    inHistory: true,
    details: listChange,
    detail: (details, categoryText) =>
      `${categoryText(details.category)}: ${listChangeText(details.before, details.after)}`,
  }),
  'nomination.remove': action({
    label: 'Nominación quitada',
    inHistory: true,
    details: listChange,
    detail: (details, categoryText) =>
      `${categoryText(details.category)}: ${listChangeText(details.before, details.after)}`,
  }),
  'nomination.move': action({
    label: 'Nominación movida',
    inHistory: true,
    details: listChange,
    detail: (details, categoryText) =>
      `${categoryText(details.category)}: ${listChangeText(details.before, details.after)}`,
  }),
  'vote.edit': action({
    label: 'Voto corregido',
    inHistory: true,
    details: z.object({
      exhibitorId: z.string(),
      category,
      order: z.number(),
      reason: z.enum(CORRECTION_REASONS),
      detail: z.string().optional(),
      before: nomineeSnapshot,
      after: nomineeSnapshot,
    }),
    detail: (details, categoryText) => {
      const changed = fieldChanges(details.before, details.after);
      const reason = `Motivo: ${CORRECTION_REASON_LABELS[details.reason]}${
        details.detail ? ` (${details.detail})` : ''
      }`;
      return `${categoryText(details.category)}, puesto ${details.order}, ${nomineeText(
        details.before,
      )}: ${changed.length > 0 ? changed.join('; ') : 'sin cambios'} · ${reason}`;
    },
  }),
  'list.annul': action({
    label: 'Votos anulados',
    inHistory: true,
    details: listAnnulment,
    detail: (details, categoryText) =>
      `${categoryText(details.category)}: ${annulmentText(details)} anulada · Motivo: ${details.annulReason}`,
  }),
  'list.restore': action({
    label: 'Votos restablecidos',
    inHistory: true,
    details: listAnnulment,
    detail: (details, categoryText) =>
      `${categoryText(details.category)}: ${annulmentText(details)} restablecida · Había sido anulada por: ${details.annulReason}`,
  }),
  'nominee.merge': action({
    label: 'Nominados unificados',
    inHistory: true,
    details: mergeDetails,
    detail: (details, categoryText) => mergeText(details, false, categoryText),
  }),
  'nominee.merge.undo': action({
    label: 'Unificación deshecha',
    inHistory: true,
    details: mergeDetails.extend({ undoOf: z.number() }),
    detail: (details, categoryText) => mergeText(details, true, categoryText),
  }),
  'logo.replaced': action({
    label: 'Logo reemplazado',
    inHistory: false,
    details: z.object({ bytes: z.number(), sha256: z.string() }),
    detail: ({ bytes }) => countText(bytes, 'byte', 'bytes'),
  }),
  'admin.invited': action({
    label: 'Administrador invitado',
    inHistory: false,
    details: z.object({ email: z.string() }),
    detail: ({ email }) => email,
  }),
  'admin.registered': action({
    label: 'Administrador registrado',
    inHistory: false,
    details: z.object({ fullName: z.string() }),
    detail: ({ fullName }) => fullName,
  }),
  'admin.revoked': action({
    label: 'Acceso revocado',
    inHistory: false,
    details: z.object({ email: z.string(), wasPending: z.boolean() }),
    detail: ({ email }) => email,
  }),
  'admin.mfa_enabled': action({
    label: 'Verificación en dos pasos activada',
    inHistory: false,
    details: nothing,
    detail: () => '',
  }),
  'admin.mfa_disabled': action({
    label: 'Verificación en dos pasos desactivada',
    inHistory: false,
    details: nothing,
    detail: () => '',
  }),
  'admin.mfa_reset': action({
    label: 'Verificación en dos pasos desactivada al restablecer la contraseña',
    inHistory: false,
    details: nothing,
    detail: () => '',
  }),
  'admin.recovery_code_used': action({
    label: 'Código de recuperación usado',
    inHistory: false,
    details: nothing,
    detail: () => '',
  }),
  'admin.sign_in_failed': action({
    label: 'Contraseña incorrecta',
    inHistory: false,
    details: nothing,
    detail: () => '',
  }),
  'admin.password_reset': action({
    label: 'Contraseña restablecida',
    inHistory: false,
    details: nothing,
    detail: () => '',
  }),
  'admin.password_changed': action({
    label: 'Contraseña cambiada',
    inHistory: false,
    details: nothing,
    detail: () => '',
  }),
  // The reseller registry (issue 27): one per installation, so in no event's "Historial".
  'registry.added': action({
    label: 'Reseller agregado al padrón',
    inHistory: false,
    details: z.object({ after: registryEntry }),
    detail: ({ after }) => `${after.name} (${after.fiscalId})`,
  }),
  'registry.edited': action({
    label: 'Reseller del padrón modificado',
    inHistory: false,
    details: z.object({ before: registryEntry, after: registryEntry }),
    detail: ({ before, after }) =>
      `${after.name} (${after.fiscalId}): ${changedFields(before, after)}`,
  }),
  'registry.removed': action({
    label: 'Reseller quitado del padrón',
    inHistory: false,
    details: z.object({ before: registryEntry }),
    detail: ({ before }) => `${before.name} (${before.fiscalId})`,
  }),
  'registry.imported': action({
    label: 'Padrón importado',
    inHistory: false,
    details: z.object({
      fileName: z.string(),
      added: z.array(z.string()),
      updated: z.array(z.string()),
      summary: z.object({
        nuevos: z.number(),
        actualizados: z.number(),
        sinCambios: z.number(),
        conErrores: z.number(),
      }),
    }),
    detail: ({ fileName, summary }) =>
      `${fileName}: ${summary.nuevos} nuevos, ${summary.actualizados} actualizados, ${summary.conErrores} con errores`,
  }),
  'registry.settings_changed': action({
    label: 'Validación de CUIT del padrón',
    inHistory: false,
    details: z.object({ validateCuit: z.boolean() }),
    detail: ({ validateCuit }) => (validateCuit ? 'Activada' : 'Desactivada'),
  }),
};

export type AuditAction = keyof typeof AUDIT_ACTIONS;
export type AuditDetails<Action extends AuditAction> = z.input<
  (typeof AUDIT_ACTIONS)[Action]['details']
>;

export const isAuditAction = (value: string): value is AuditAction =>
  Object.hasOwn(AUDIT_ACTIONS, value);

/** A stored JSON text as a value, or undefined when it is not JSON at all. */
function parseJson(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return undefined;
  }
}

/**
 * The details of a stored entry through the schema of its action (`AUDIT_ACTIONS[action].details`),
 * or undefined when they do not fit it: the caller shows such an entry as unreadable.
 */
export function readAuditDetails<Schema extends z.ZodType>(
  schema: Schema,
  rawDetails: string,
): z.output<Schema> | undefined {
  const parsed = schema.safeParse(parseJson(rawDetails));
  return parsed.success ? parsed.data : undefined;
}

/**
 * The "Detalle" of a stored entry: its action's text, or that it could not be read. Categories are
 * named by `categoryText` (the event's names), else as the default categories are.
 */
export function auditDetailText(
  action: string,
  rawDetails: string,
  categoryText: CategoryNamer = defaultCategoryText,
): string {
  const text = isAuditAction(action)
    ? AUDIT_ACTIONS[action].text(parseJson(rawDetails), categoryText)
    : undefined;
  return text ?? MSG.auditDetailUnreadable;
}

/** The "Acción" label of an action; an action this version does not know shows under its code. */
export const auditActionLabel = (action: string) =>
  isAuditAction(action) ? AUDIT_ACTIONS[action].label : action;
