import AddIcon from '@mui/icons-material/Add';
import {
  Box,
  Button,
  FormControlLabel,
  Link,
  Stack,
  Switch,
  Typography,
  type ChipProps,
} from '@mui/material';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { Link as RouterLink, useLocation, useNavigate } from 'react-router';
import { formatDisplayDate } from '../../../shared/dates.ts';
import { MSG } from '../../../shared/messages.ts';
import { votedPercentText } from '../../../shared/calendar-texts.ts';
import {
  EVENT_STATUS_LABELS,
  type EventStatus,
  type EventView,
} from '../../../shared/schemas/events.ts';
import { DataTable, type Column } from '../../components/DataTable.tsx';
import { StatusChip } from '../../components/StatusChip.tsx';
import { useToast } from '../../components/Toasts.tsx';
import { useEventList } from '../../features/events/queries.ts';
import { SearchForm } from '../../components/SearchForm.tsx';
import { QueryState } from '../../components/QueryState.tsx';

// The date pickers are most of the dialog's weight: loaded when it first opens.
const EventDialog = lazy(() =>
  import('../../features/events/EventDialog.tsx').then((m) => ({ default: m.EventDialog })),
);

const STATUS_COLORS: Record<EventStatus, ChipProps['color']> = {
  draft: 'default',
  open: 'success',
  closed: 'default',
  archived: 'default',
};

const columns: Column<EventView>[] = [
  {
    header: 'Nombre',
    render: (event) => (
      <Link component={RouterLink} to={`/admin/event/${event.id}`}>
        {event.name}
      </Link>
    ),
  },
  {
    header: 'Fecha límite',
    noWrap: true,
    render: (event) => formatDisplayDate(event.voteDeadline),
  },
  {
    header: 'Fecha del Evento',
    noWrap: true,
    render: (event) => formatDisplayDate(event.eventDate),
  },
  {
    header: 'Estado',
    // Where the event stands, and for an open one how many of its exhibitors voted so far.
    render: (event) => (
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
        <StatusChip status={event.status} labels={EVENT_STATUS_LABELS} colors={STATUS_COLORS} />
        {event.votedPercent === null ? null : (
          <Typography variant="body2" component="span">
            {votedPercentText(event.votedPercent)}
          </Typography>
        )}
      </Box>
    ),
  },
];

/** Arriving from a deleted event (navigation state `deleted`), confirm it once. */
function useDeletedNotice() {
  const location = useLocation();
  const navigate = useNavigate();
  const toast = useToast();
  const shown = useRef(false);
  const deleted = (location.state as { deleted?: boolean } | null)?.deleted === true;
  useEffect(() => {
    if (!deleted || shown.current) return;
    shown.current = true;
    toast(MSG.eventDeleted);
    // Drop the state so that a reload does not confirm it again.
    void navigate(location.pathname, { replace: true, state: null });
  }, [deleted, location.pathname, navigate, toast]);
}

export default function EventsList() {
  const [search, setSearch] = useState('');
  const [creating, setCreating] = useState(false);
  const [archived, setArchived] = useState(false);
  const query = useEventList(search, archived);
  useDeletedNotice();

  return (
    <Stack spacing={2}>
      <Box
        sx={{
          display: 'flex',
          alignItems: 'center',
          justifyContent: 'space-between',
          gap: 2,
          flexWrap: 'wrap',
        }}
      >
        <Typography variant="h1">Eventos</Typography>
        <Button variant="contained" startIcon={<AddIcon />} onClick={() => setCreating(true)}>
          nuevo
        </Button>
      </Box>
      <SearchForm
        onSearch={setSearch}
        maxLength={200}
        width={360}
        after={
          <FormControlLabel
            label="Archivados"
            control={
              <Switch
                checked={archived}
                onChange={(change) => setArchived(change.target.checked)}
              />
            }
          />
        }
      />
      <QueryState query={query}>
        {(data) => (
          <DataTable
            label="Eventos"
            columns={columns}
            rows={data.events}
            rowKey={(event) => event.id}
            emptyText={archived ? MSG.noArchivedEvents : MSG.noEvents}
          />
        )}
      </QueryState>
      <Suspense>
        {creating ? (
          <EventDialog defaultTimeZone={query.data?.timeZone} onClose={() => setCreating(false)} />
        ) : null}
      </Suspense>
    </Stack>
  );
}
