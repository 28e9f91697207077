/**
 * The actions of an event's history ("Historial"), as the "Acción" column and its filter name
 * them. Entries of other actions still show, under their code.
 */
export const HISTORY_ACTION_LABELS: Record<string, string> = {
  'event.created': 'Evento creado',
  'event.updated': 'Evento modificado',
  'event.duplicated': 'Evento duplicado',
  'event.archived': 'Evento archivado',
  'event.unarchived': 'Evento desarchivado',
  'event.anonymised': 'Datos personales anonimizados',
  'event.voting_closed': 'Votación cerrada',
  'exhibitor.added': 'Expositor agregado',
  'exhibitor.edited': 'Expositor modificado',
  'exhibitor.removed': 'Expositor quitado',
  'exhibitor.invitation_resent': 'Invitación reenviada',
  'exhibitors.invited': 'Invitaciones pendientes enviadas',
  'exhibitors.imported': 'Expositores importados',
  'exhibitors.reminded': 'Recordatorio enviado',
  'nomination.add': 'Nominación agregada',
  'nomination.edit': 'Nominación modificada',
  'nomination.remove': 'Nominación quitada',
  'nomination.move': 'Nominación movida',
  'vote.edit': 'Voto corregido',
  'nominee.merge': 'Nominados unificados',
  'nominee.merge.undo': 'Unificación deshecha',
};

export const HISTORY_PAGE_SIZE = 50;
