import { formatDisplayInstant } from '../../../shared/dates.ts';
import { zoneLabel } from '../../../shared/deadline-zone.ts';
import { INVITATION_STATUS_LABELS } from '../../../shared/schemas/exhibitors.ts';
import {
  nominationCountText,
  PARTICIPATION_COLUMNS,
  type ParticipationRow,
} from '../../../shared/schemas/participation.ts';
import { writeWorkbook } from '../../lib/xlsx.ts';

/** The participation table as the screen shows it, one row per exhibitor, in the event's zone. */
export function participationWorkbook(rows: ParticipationRow[], timeZone: string): Promise<Buffer> {
  return writeWorkbook(
    'Participación',
    // The instant's column names the zone it is read in, as every date the event shows does.
    PARTICIPATION_COLUMNS.map((column) =>
      column === 'Último ingreso' ? `${column} (${zoneLabel(timeZone)})` : column,
    ),
    rows.map((row) => [
      row.fullName,
      row.email,
      row.company,
      INVITATION_STATUS_LABELS[row.invitation.status],
      row.lastSignedInAt ? formatDisplayInstant(row.lastSignedInAt, timeZone) : '',
      nominationCountText(row.nominations.consumption),
      nominationCountText(row.nominations.value),
    ]),
  );
}
