import { failsCuitCheck } from '../../shared/cuit.ts';
import { MSG } from '../../shared/messages.ts';
import type { NominableResellers } from '../../shared/registry.ts';
import type { Db } from '../db/connection.ts';
import type { EventRow } from '../db/schema.ts';
import { badRequest } from './errors.ts';

/** An event's rules on which fiscal ids may be nominated (issue 27), as stored. */
export type RegistryRules = Pick<EventRow, 'nominable_resellers' | 'validate_cuit'>;

/** Whether the event has either rule on (PostgreSQL's one-statement save leaves those to us). */
export const hasRegistryRules = (rules: RegistryRules): boolean =>
  (rules.nominable_resellers as NominableResellers) !== 'any' || rules.validate_cuit === 1;

/**
 * Refuses, with 400 on "ID fiscal" and nothing written, a nominee's fiscal id that the event's
 * rules do not allow: with "Validar CUIT", an 11-digit id whose check digit is wrong ("El ID
 * fiscal no es un CUIT válido."); with "Solo los del padrón", an id the registry does not hold
 * ("El reseller no está en el padrón del programa."). Every route that stores a nomination calls
 * it inside its transaction: the exhibitor's saves (both paths) and the administrator's
 * corrections and merges.
 */
export async function checkRegistryRules(
  db: Db,
  rules: RegistryRules,
  fiscalId: string,
): Promise<void> {
  if (failsCuitCheck(fiscalId, rules.validate_cuit === 1)) {
    throw badRequest(MSG.invalidCuit, 'fiscalId');
  }
  if (rules.nominable_resellers === 'registry') {
    const entry = await db
      .selectFrom('resellers')
      .select('fiscal_id')
      .where('fiscal_id', '=', fiscalId)
      .executeTakeFirst();
    if (!entry) throw badRequest(MSG.resellerNotInRegistry, 'fiscalId');
  }
}
