/**
 * The texts of issue 31's controls that carry a number (the catalogue in messages.ts holds plain
 * strings): the pending invitations' question and answer, and an open event's turnout.
 */

/** The question of "Enviar invitaciones". */
export const pendingInvitationsQuestion = (count: number): string =>
  `Se enviará la invitación a ${count} expositores.`;

/** What "Enviar" did: how many were invited, and how many wait for their address's limit. */
export function pendingInvitationsOutcome(sent: number, limited: number): string {
  const done = sent === 1 ? 'Se envió 1 invitación.' : `Se enviaron ${sent} invitaciones.`;
  if (limited === 0) return done;
  const waiting = limited === 1 ? '1 expositor alcanzó' : `${limited} expositores alcanzaron`;
  return `${done} ${waiting} el límite de invitaciones por hora: intente de nuevo más tarde.`;
}

/** "{k} % votó": an open event's share of exhibitors with at least one nomination. */
export const votedPercentText = (percent: number): string => `${percent} % votó`;
