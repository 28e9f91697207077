import NotificationsActiveIcon from '@mui/icons-material/NotificationsActive';
import {
  Box,
  Button,
  MenuItem,
  Paper,
  Stack,
  TextField,
  Tooltip,
  Typography,
  type ChipProps,
} from '@mui/material';
import { useMemo, useState } from 'react';
import { useParams } from 'react-router';
import { exportParticipation } from '../../../shared/api/participation.ts';
import { formatDisplayInstant } from '../../../shared/dates.ts';
import {
  INVITATION_STATUS_LABELS,
  type InvitationStatus,
} from '../../../shared/schemas/exhibitors.ts';
import {
  filterParticipation,
  nominationCountText,
  PARTICIPATION_FIGURE_LABELS,
  PARTICIPATION_FILTER_LABELS,
  PARTICIPATION_FILTERS,
  REMINDER_AUDIENCES,
  REMINDER_BUTTON_LABELS,
  figureShareText,
  votedInCategoryLabel,
  type ParticipationFilter,
  type ParticipationResponse,
  type ReminderAudience,
  type ParticipationRow,
} from '../../../shared/schemas/participation.ts';
import { StatusChip } from '../../components/StatusChip.tsx';
import { DataTable, type Column } from '../../components/DataTable.tsx';
import { QueryState } from '../../components/QueryState.tsx';
import { useToast } from '../../components/Toasts.tsx';
import { ReminderDialog } from '../../features/participation/ReminderDialog.tsx';
import { useEvent, useEventWritable } from '../../features/events/queries.ts';
import { zoneLabel } from '../../../shared/deadline-zone.ts';
import { useParticipation } from '../../features/participation/queries.ts';
import { ExportAction } from '../../features/results/ResultsHeader.tsx';
import { PhoneOnly } from '../../components/PhoneOnly.tsx';
import { downloadFile } from '../../features/results/queries.ts';
import { errorMessage } from '../../lib/api.ts';

const STATUS_COLORS: Record<InvitationStatus, ChipProps['color']> = {
  pending: 'default',
  sent: 'success',
  failed: 'error',
  none: 'default',
};

type ParticipationCategory = ParticipationResponse['categories'][number];

/** The figures before the categories' and the one after them, in the order they are shown. */
const FIGURES_BEFORE_CATEGORIES = [
  'invited',
  'invitationDelivered',
  'invitationFailed',
  'signedIn',
] as const;

interface Figure {
  key: string;
  label: string;
  count: number;
  /** Beside every figure but "Invitados": its share of the invited. */
  showShare: boolean;
}

/** "Invitados" … "Ingresaron", one "Votaron en {NOMBRE}" per category in order, "Sin votos". */
function figuresOf(data: ParticipationResponse): Figure[] {
  return [
    ...FIGURES_BEFORE_CATEGORIES.map((figure) => ({
      key: figure,
      label: PARTICIPATION_FIGURE_LABELS[figure],
      count: data.figures[figure],
      showShare: figure !== 'invited',
    })),
    ...data.categories.map((category) => ({
      key: `voted-${category.address}`,
      label: votedInCategoryLabel(category.name),
      count: category.voted,
      showShare: true,
    })),
    {
      key: 'noVotes',
      label: PARTICIPATION_FIGURE_LABELS.noVotes,
      count: data.figures.noVotes,
      showShare: true,
    },
  ];
}

const isFilter = (value: string): value is ParticipationFilter =>
  PARTICIPATION_FILTERS.some((filter) => filter === value);

function InvitationCell({ row }: { row: ParticipationRow }) {
  const chip = (
    <StatusChip
      status={row.invitation.status}
      labels={INVITATION_STATUS_LABELS}
      colors={STATUS_COLORS}
    />
  );
  return (
    <Box>
      {row.invitation.error ? <Tooltip title={row.invitation.error}>{chip}</Tooltip> : chip}
      {row.invitation.error ? (
        // The mail server's own words: what the administrator needs to fix the address.
        <Typography variant="caption" color="error" sx={{ display: 'block', mt: 0.25 }}>
          {row.invitation.error}
        </Typography>
      ) : null}
    </Box>
  );
}

/** The table's columns; "Último ingreso" in the event's zone, then one per category. */
const columnsFor = (
  timeZone: string,
  categories: readonly ParticipationCategory[],
): Column<ParticipationRow>[] => [
  {
    header: 'Nombre completo',
    render: (row) => (
      <>
        {row.fullName}
        <PhoneOnly>{row.email}</PhoneOnly>
        {/* A phone has no room for the invitation's own column. */}
        <Box sx={{ display: { xs: 'block', sm: 'none' }, mt: 0.5 }}>
          <InvitationCell row={row} />
        </Box>
      </>
    ),
  },
  { header: 'Email', render: (row) => row.email, hideOnPhone: true },
  { header: 'Empresa', render: (row) => row.company, hideOnPhone: true },
  {
    header: 'Invitación',
    hideOnPhone: true,
    render: (row) => <InvitationCell row={row} />,
  },
  {
    header: 'Último ingreso',
    hideOnPhone: true,
    noWrap: true,
    render: (row) =>
      row.lastSignedInAt ? formatDisplayInstant(row.lastSignedInAt, timeZone) : '—',
  },
  // One column per category of the event, in its order, named by the category.
  ...categories.map((category): Column<ParticipationRow> => ({
    header: category.name,
    // A category may share a name with another column ("Email"): its address keys it.
    key: `category-${category.address}`,
    keepWords: true,
    // Only as wide as its header: the rest goes to the name on a phone.
    width: '1%',
    render: (row) =>
      nominationCountText(
        row.categories.find((entry) => entry.address === category.address)?.nominations ?? 0,
        category.nomineeLimit,
      ),
  })),
];

/** Who has voted: the event's figures, the filtered table, its export and the reminder. */
export default function ParticipationTab() {
  const { eventId = '' } = useParams();
  const readOnly = !useEventWritable(eventId);
  const timeZone = useEvent(eventId).data?.timeZone;
  const toast = useToast();
  const query = useParticipation(eventId);
  const [show, setShow] = useState<ParticipationFilter>('all');
  const [search, setSearch] = useState('');
  const [reminding, setReminding] = useState<ReminderAudience | null>(null);
  const rows = useMemo(
    () => filterParticipation(query.data?.exhibitors ?? [], show, search),
    [query.data, show, search],
  );

  return (
    <Stack spacing={2}>
      <QueryState query={query}>
        {(data) => (
          <>
            <Box
              component="ul"
              sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, listStyle: 'none', p: 0, m: 0 }}
            >
              {figuresOf(data).map((figure) => (
                <Paper
                  key={figure.key}
                  component="li"
                  variant="outlined"
                  sx={{ px: 1.5, py: 1, flex: { xs: '1 1 45%', sm: '0 0 auto' } }}
                >
                  <Typography component="span">{`${figure.label}: ${figure.count}`}</Typography>
                  {figure.showShare ? (
                    // The share of the invited beside each figure: 12 of 250 reads as little.
                    <Typography component="span" color="text.secondary" sx={{ ml: 1 }}>
                      {figureShareText(figure.count, data.figures.invited)}
                    </Typography>
                  ) : null}
                </Paper>
              ))}
            </Box>
            <Box
              sx={{
                display: 'flex',
                flexWrap: 'wrap',
                alignItems: 'center',
                gap: 1,
              }}
            >
              <TextField
                select
                label="Mostrar"
                size="small"
                value={show}
                onChange={(event) => {
                  if (isFilter(event.target.value)) setShow(event.target.value);
                }}
                sx={{ minWidth: 160 }}
              >
                {PARTICIPATION_FILTERS.map((filter) => (
                  <MenuItem key={filter} value={filter}>
                    {PARTICIPATION_FILTER_LABELS[filter]}
                  </MenuItem>
                ))}
              </TextField>
              <Box role="search" sx={{ flex: { xs: '1 1 100%', sm: '0 1 320px' } }}>
                <TextField
                  label="Buscar"
                  type="search"
                  size="small"
                  fullWidth
                  value={search}
                  onChange={(event) => setSearch(event.target.value)}
                  slotProps={{ htmlInput: { maxLength: 200 } }}
                />
              </Box>
              <ExportAction
                onClick={() =>
                  downloadFile(exportParticipation, {
                    params: { eventId },
                    query: { show, q: search.trim() },
                  }).catch((error: unknown) => toast(errorMessage(error), { severity: 'error' }))
                }
              />
              <Box sx={{ flexGrow: 1 }} />
              {readOnly
                ? null
                : REMINDER_AUDIENCES.map((audience) => (
                    <Button
                      key={audience}
                      variant={audience === 'noVotes' ? 'contained' : 'outlined'}
                      startIcon={<NotificationsActiveIcon />}
                      onClick={() => setReminding(audience)}
                    >
                      {REMINDER_BUTTON_LABELS[audience]}
                    </Button>
                  ))}
            </Box>
            {timeZone ? (
              <Typography variant="body2" color="text.secondary">
                {`Fechas y horas en ${zoneLabel(timeZone)}.`}
              </Typography>
            ) : null}
            <DataTable
              label="Participación"
              columns={columnsFor(timeZone ?? 'UTC', data.categories)}
              rows={rows}
              rowKey={(row) => row.id}
              emptyText="No hay expositores para mostrar"
            />
          </>
        )}
      </QueryState>
      {reminding ? (
        <ReminderDialog eventId={eventId} audience={reminding} onClose={() => setReminding(null)} />
      ) : null}
    </Stack>
  );
}
