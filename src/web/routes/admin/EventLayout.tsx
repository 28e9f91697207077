import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import {
  Box,
  Button,
  IconButton,
  Stack,
  Tab,
  Tabs,
  Tooltip,
  Typography,
  useMediaQuery,
  useTheme,
} from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useState } from 'react';
import { Link as RouterLink, Outlet, useLocation, useNavigate, useParams } from 'react-router';
import { CATEGORY_LABELS } from '../../../shared/constants.ts';
import { formatDisplayDate } from '../../../shared/dates.ts';
import { MSG } from '../../../shared/messages.ts';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { Loading } from '../../components/RequireRole.tsx';
import { useToast } from '../../components/Toasts.tsx';
import {
  eventQuery,
  eventWritesInvalidate,
  useDeleteEvent,
  useEvent,
} from '../../features/events/queries.ts';
import { ExportEventAction } from '../../features/results/ResultsHeader.tsx';
import { ApiError } from '../../lib/api.ts';

// The date pickers are most of the dialog's weight: loaded when it first opens.
const EventDialog = lazy(() =>
  import('../../features/events/EventDialog.tsx').then((m) => ({ default: m.EventDialog })),
);

const TABS = [
  { path: 'exhibitors', label: 'Expositores' },
  { path: 'participation', label: 'Participación' },
  { path: 'consumption', label: `Nominación Reseller ${CATEGORY_LABELS.consumption}` },
  { path: 'value', label: `Nominación Reseller ${CATEGORY_LABELS.value}` },
  { path: 'history', label: 'Historial' },
] as const;

const tabId = (path: string) => `event-tab-${path}`;

function BackButton() {
  const navigate = useNavigate();
  return (
    <Button startIcon={<ArrowBackIcon />} onClick={() => void navigate('/admin')}>
      Atras
    </Button>
  );
}

/** An event's header (name, dates, edit, delete) above its tabs, each with its own URL. */
export default function EventLayout() {
  const { eventId = '' } = useParams();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const client = useQueryClient();
  const toast = useToast();
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('sm'));
  const query = useEvent(eventId);
  const [dialog, setDialog] = useState<'edit' | 'delete' | null>(null);
  const [deleting, setDeleting] = useState(false);
  const deleteEvent = useDeleteEvent();
  const current = TABS.find((tab) => tab.path === pathname.split('/')[4])?.path;
  const loaded = query.isSuccess;
  // On a phone the tabs scroll sideways: bring the current one into view once they are drawn.
  useEffect(() => {
    if (!phone || !loaded || !current) return;
    document
      .getElementById(tabId(current))
      ?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }, [phone, loaded, current]);

  if (query.isPending) return <Loading />;
  if (query.isError) {
    const missing = query.error instanceof ApiError && query.error.status === 404;
    return (
      <Stack spacing={2} sx={{ alignItems: 'flex-start' }}>
        <BackButton />
        <Typography variant="h1">{missing ? MSG.eventNotFound : MSG.genericError}</Typography>
      </Stack>
    );
  }
  const event = query.data;

  async function remove() {
    setDeleting(true);
    try {
      await deleteEvent.mutateAsync({ params: { eventId } });
      // Leave first: this screen would otherwise refetch the event it just deleted.
      await navigate('/admin', { state: { deleted: true } });
      client.removeQueries({ queryKey: eventQuery(eventId).queryKey });
      await Promise.all(
        eventWritesInvalidate().map((queryKey) => client.invalidateQueries({ queryKey })),
      );
    } catch {
      setDialog(null);
      toast(MSG.deleteEventFailed, { severity: 'error', durationMs: 3000 });
    } finally {
      setDeleting(false);
    }
  }

  return (
    <Stack spacing={2}>
      <Box>
        <BackButton />
      </Box>
      <Box sx={{ display: 'flex', alignItems: 'flex-start', gap: 1 }}>
        <Box sx={{ flexGrow: 1, minWidth: 0 }}>
          <Typography variant="h1" sx={{ overflowWrap: 'anywhere' }}>
            {event.name}
          </Typography>
          <Box sx={{ display: 'flex', columnGap: 3, rowGap: 0.5, flexWrap: 'wrap', mt: 1 }}>
            <Typography>{`Fecha: ${formatDisplayDate(event.eventDate)}`}</Typography>
            <Typography>{`Límite: ${formatDisplayDate(event.voteDeadline)}`}</Typography>
          </Box>
        </Box>
        <Box sx={{ display: 'flex', flexShrink: 0 }}>
          <ExportEventAction eventId={eventId} />
          <Tooltip title="Editar evento">
            <IconButton aria-label="Editar evento" onClick={() => setDialog('edit')}>
              <EditIcon />
            </IconButton>
          </Tooltip>
          <Tooltip title="Eliminar evento">
            <IconButton
              aria-label="Eliminar evento"
              color="error"
              onClick={() => setDialog('delete')}
            >
              <DeleteIcon />
            </IconButton>
          </Tooltip>
        </Box>
      </Box>
      <Tabs
        value={current ?? false}
        // Five tabs do not fit a phone side by side: there they scroll with a swipe, the current
        // one in view (arrow buttons would take a fifth of the width).
        variant={phone ? 'scrollable' : 'standard'}
        scrollButtons={false}
        aria-label="Secciones del evento"
        sx={{ borderBottom: 1, borderColor: 'divider' }}
      >
        {TABS.map((tab) => (
          <Tab
            key={tab.path}
            id={tabId(tab.path)}
            value={tab.path}
            label={tab.label}
            component={RouterLink}
            to={`/admin/event/${eventId}/${tab.path}`}
            sx={{ px: { xs: 1, sm: 2 } }}
          />
        ))}
      </Tabs>
      <Box role="tabpanel" aria-labelledby={current ? tabId(current) : undefined}>
        <Outlet />
      </Box>
      <Suspense>
        {dialog === 'edit' ? <EventDialog event={event} onClose={() => setDialog(null)} /> : null}
      </Suspense>
      <ConfirmDialog
        open={dialog === 'delete'}
        title="¿Eliminar evento?"
        text="Esta acción no puede revertirse"
        confirmLabel="Eliminar"
        busy={deleting}
        onConfirm={() => void remove()}
        onClose={() => setDialog(null)}
      />
    </Stack>
  );
}
