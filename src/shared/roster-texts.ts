/*
 * What the exhibitors tab says of its roster and of its bulk actions (issue 32, item 2): counts in
 * the right number, and what a removal discards before it is confirmed.
 */

const countText = (count: number, singular: string, plural: string) =>
  `${count} ${count === 1 ? singular : plural}`;

/** "{n} expositores": how many exhibitors the event has. */
export const rosterCountText = (count: number) => countText(count, 'expositor', 'expositores');

/** Under the count while searching or filtering: how many rows match. */
export const rosterMatchesText = (count: number) =>
  count === 1 ? '1 coincide con la búsqueda' : `${count} coinciden con la búsqueda`;

/** Beside the bulk buttons: how many rows are ticked. */
export const rosterSelectedText = (count: number) =>
  count === 1 ? '1 seleccionado' : `${count} seleccionados`;

/** The question of "¿Eliminar expositores?": how many go and what goes with them. */
export function bulkRemovalText(exhibitors: number, nominations: number): string {
  const who =
    exhibitors === 1
      ? 'Se quitará 1 expositor de este evento'
      : `Se quitarán ${exhibitors} expositores de este evento`;
  const lost =
    nominations === 0
      ? '. No tienen nominaciones en él.'
      : ` y se descartarán ${countText(nominations, 'nominación', 'nominaciones')} en él.`;
  return `${who}${lost} Esta acción no puede revertirse.`;
}

/** The toast after "Eliminar expositores". */
export function bulkRemovedText(removed: number, discardedNominations: number): string {
  const who = removed === 1 ? 'Se quitó 1 expositor' : `Se quitaron ${removed} expositores`;
  return discardedNominations === 0
    ? `${who}.`
    : `${who} y ${countText(discardedNominations, 'nominación', 'nominaciones')}.`;
}

/** The toast after "Reenviar invitaciones": sent, and left without room this hour. */
export function bulkResentText(resent: number, limited: number): string {
  const done = resent === 1 ? 'Se reenvió 1 invitación.' : `Se reenviaron ${resent} invitaciones.`;
  if (limited === 0) return done;
  const waiting =
    limited === 1
      ? '1 no se envió: la dirección ya recibió varias en la última hora.'
      : `${limited} no se enviaron: las direcciones ya recibieron varias en la última hora.`;
  return `${done} ${waiting} Puede reenviarlas más tarde.`;
}

/** The toast after "Nuevo votante" saved. */
export const exhibitorAddedText = (fullName: string) =>
  `Se agregó a ${fullName}. La invitación se está enviando por email.`;

/** The toast after "Editar expositor" saved; a new address of an invited exhibitor is invited. */
export function exhibitorEditedText(fullName: string, newAddress: string | null): string {
  const saved = `Se guardaron los datos de ${fullName}.`;
  return newAddress === null ? saved : `${saved} Se envía una nueva invitación a ${newAddress}.`;
}

/** What the exhibitor dialogs say of the invitation before saving. */
export const INVITATION_NOTICE = {
  add: 'Al guardar se envía la invitación por email a esta dirección, y el recordatorio antes del cierre.',
  edit: 'Si cambia el email, al guardar se envía una nueva invitación a la nueva dirección; sus votos se conservan.',
  editUninvited:
    'Este expositor todavía no fue invitado: cambiar sus datos no envía la invitación. Use «Reenviar invitación» o «Enviar invitaciones pendientes».',
} as const;
