import type { CategoryAddress } from '../../shared/constants.ts';
import { MSG } from '../../shared/messages.ts';
import {
  missingRequiredFields,
  withUnaskedFieldsKept,
  type NomineeFieldSettings,
} from '../../shared/nominee-fields.ts';
import type { Nominee, NomineeView } from '../../shared/schemas/nominee.ts';
import type { Nomination } from '../db/schema.ts';
import type { Tx } from '../db/transact.ts';
import { AppError } from './errors.ts';
import { iso } from './time.ts';

/** The columns of a nominations row that hold the nominee form's nine fields. */
export type NomineeColumns = Pick<
  Nomination,
  | 'name'
  | 'registered_name'
  | 'fiscal_id'
  | 'contact_name'
  | 'contact_position'
  | 'phone'
  | 'email'
  | 'location'
  | 'city'
>;

/** A stored nomination as the API shows the nominee. */
export function toNominee(row: NomineeColumns): Nominee {
  return {
    name: row.name,
    registeredName: row.registered_name,
    fiscalId: row.fiscal_id,
    contactName: row.contact_name,
    contactPosition: row.contact_position,
    phone: row.phone,
    email: row.email,
    location: row.location,
    city: row.city,
  };
}

/** The nominee with its place in its list. */
export function toNomineeView(row: NomineeColumns & Pick<Nomination, 'list_order'>): NomineeView {
  return { order: Number(row.list_order), ...toNominee(row) };
}

/** The nominee form's values as the columns they are stored in. */
export function nomineeColumns(values: Nominee): NomineeColumns {
  return {
    name: values.name,
    registered_name: values.registeredName,
    fiscal_id: values.fiscalId,
    contact_name: values.contactName,
    contact_position: values.contactPosition,
    phone: values.phone,
    email: values.email,
    location: values.location,
    city: values.city,
  };
}

/** One exhibitor's list in one category of one event. */
export interface ListKey {
  eventId: string;
  exhibitorId: string;
  category: CategoryAddress;
}

/**
 * Writes the nominee's fields over the entry at `order`, keeping its place and nominated_at (the
 * ranking's tie-break stays with the entry).
 */
export async function storeNomineeFields(
  tx: Tx,
  key: ListKey,
  order: number,
  values: Nominee,
  now: Date,
): Promise<void> {
  await tx
    .updateTable('nominations')
    .set({ ...nomineeColumns(values), updated_at: iso(now) })
    .where('event_id', '=', key.eventId)
    .where('exhibitor_id', '=', key.exhibitorId)
    .where('category', '=', key.category)
    .where('list_order', '=', order)
    .execute();
}

/**
 * The form's values as the event asks for them: 400 "Este campo es obligatorio" on each required
 * field left empty (nothing is written), and a field it does not ask keeps the entry's value
 * (`kept`) or stays empty. Entries saved before a field became required keep their empty value
 * until they are edited (decision 0026).
 */
export function checkNomineeFields(
  values: Nominee,
  fields: NomineeFieldSettings,
  kept?: Nominee,
): Nominee {
  const asked = withUnaskedFieldsKept(values, fields, kept);
  const missing = missingRequiredFields(asked, fields);
  if (Object.keys(missing).length > 0) {
    throw new AppError('invalid_input', { message: MSG.requiredField, fields: missing });
  }
  return asked;
}
