import { formatDisplayInstant } from '../../../shared/dates.ts';
import { zoneLabel } from '../../../shared/deadline-zone.ts';
import { INVITATION_STATUS_LABELS } from '../../../shared/schemas/exhibitors.ts';
import {
  nominationCountText,
  PARTICIPATION_MEMBER_COLUMNS,
  type ParticipationRow,
} from '../../../shared/schemas/participation.ts';
import { writeWorkbook } from '../../lib/xlsx.ts';

/**
 * The participation table as the screen shows it, one row per exhibitor, in the event's zone: one
 * column per category of the event, in its order, named by the category.
 */
export function participationWorkbook(
  rows: ParticipationRow[],
  categories: readonly { address: string; name: string; nomineeLimit: number }[],
  timeZone: string,
): Promise<Buffer> {
  return writeWorkbook(
    'Participación',
    [
      // The instant's column names the zone it is read in, as every date the event shows does.
      ...PARTICIPATION_MEMBER_COLUMNS.map((column) =>
        column === 'Último ingreso' ? `${column} (${zoneLabel(timeZone)})` : column,
      ),
      ...categories.map((category) => category.name),
    ],
    rows.map((row) => [
      row.fullName,
      row.email,
      row.company,
      INVITATION_STATUS_LABELS[row.invitation.status],
      row.lastSignedInAt ? formatDisplayInstant(row.lastSignedInAt, timeZone) : '',
      ...categories.map((category) =>
        nominationCountText(
          row.categories.find((own) => own.address === category.address)?.nominations ?? 0,
          category.nomineeLimit,
        ),
      ),
    ]),
  );
}
