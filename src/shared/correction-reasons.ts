/**
 * Why an administrator corrected an exhibitor's vote, as the "Motivo" select offers it. Stored in
 * the correction's audit entry and shown in the history and the "Correcciones" sheet.
 */
export const CORRECTION_REASONS = ['typo', 'wrongFiscalId', 'exhibitorRequest', 'other'] as const;
export type CorrectionReason = (typeof CORRECTION_REASONS)[number];

export const CORRECTION_REASON_LABELS: Record<CorrectionReason, string> = {
  typo: 'Error de tipeo',
  wrongFiscalId: 'ID fiscal equivocado',
  exhibitorRequest: 'Pedido del expositor',
  other: 'Otro',
};
