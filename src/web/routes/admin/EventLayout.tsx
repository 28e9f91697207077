import ArchiveIcon from '@mui/icons-material/Archive';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import EventBusyIcon from '@mui/icons-material/EventBusy';
import ImageIcon from '@mui/icons-material/Image';
import PersonOffIcon from '@mui/icons-material/PersonOff';
import UnarchiveIcon from '@mui/icons-material/Unarchive';
import VisibilityIcon from '@mui/icons-material/Visibility';
import {
  Alert,
  Box,
  Button,
  DialogContentText,
  IconButton,
  Stack,
  Tab,
  Tabs,
  Tooltip,
  Typography,
  useMediaQuery,
  useTheme,
} from '@mui/material';
import { visuallyHidden } from '@mui/utils';
import { useQueryClient } from '@tanstack/react-query';
import {
  lazy,
  Suspense,
  useDeferredValue,
  useEffect,
  useId,
  useState,
  type ReactNode,
} from 'react';
import { Link as RouterLink, Outlet, useLocation, useNavigate, useParams } from 'react-router';
import type { EventCategoryView } from '../../../shared/schemas/categories.ts';
import { formatDisplayDate } from '../../../shared/dates.ts';
import { MSG, resultsViewedEarlyText } from '../../../shared/messages.ts';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { Loading } from '../../components/RequireRole.tsx';
import { useToast } from '../../components/Toasts.tsx';
import {
  eventQuery,
  eventWritesInvalidate,
  useAnonymiseEvent,
  useArchiveEvent,
  useCloseVoting,
  useDeleteEvent,
  useEvent,
  useUnarchiveEvent,
} from '../../features/events/queries.ts';
import { ExportEventAction } from '../../features/results/ResultsHeader.tsx';
import { ApiError, errorMessage } from '../../lib/api.ts';

// The date pickers are most of the dialog's weight: loaded when it first opens.
const EventDialog = lazy(() =>
  import('../../features/events/EventDialog.tsx').then((m) => ({ default: m.EventDialog })),
);

const EventLogoDialog = lazy(() => import('../../features/branding/EventLogoDialog.tsx'));

/** The event page's tabs: one per category, in the event's order, by its address. */
const eventTabs = (categories: readonly EventCategoryView[]) => [
  { path: 'exhibitors', label: 'Expositores' },
  { path: 'participation', label: 'Participación' },
  { path: 'categories', label: 'Categorías' },
  ...categories.map(({ address, name }) => ({
    path: address,
    label: `Nominación Reseller ${name}`,
  })),
  { path: 'integrity', label: 'Integridad' },
  { path: 'history', label: 'Historial' },
];

const tabId = (path: string) => `event-tab-${path}`;

function BackButton() {
  const navigate = useNavigate();
  return (
    <Button startIcon={<ArrowBackIcon />} onClick={() => void navigate('/admin')}>
      Atras
    </Button>
  );
}

type DialogName =
  'edit' | 'delete' | 'duplicate' | 'archive' | 'anonymise' | 'close' | 'logo' | null;

/** One icon button of the header: its tooltip is its accessible name. */
function HeaderAction({
  label,
  icon,
  danger,
  disabledReason,
  onClick,
}: {
  label: string;
  icon: ReactNode;
  danger?: boolean;
  /** Shown disabled, its tooltip and description saying why (rather than hidden). */
  disabledReason?: string;
  onClick(): void;
}) {
  const reasonId = useId();
  if (disabledReason) {
    return (
      // A disabled button fires no events: its wrapper carries the tooltip.
      <Tooltip title={`${label}: ${disabledReason}`}>
        <span>
          <IconButton aria-label={label} aria-describedby={reasonId} disabled>
            {icon}
          </IconButton>
          <Box component="span" id={reasonId} sx={visuallyHidden}>
            {disabledReason}
          </Box>
        </span>
      </Tooltip>
    );
  }
  return (
    <Tooltip title={label}>
      <IconButton aria-label={label} color={danger ? 'error' : 'default'} onClick={onClick}>
        {icon}
      </IconButton>
    </Tooltip>
  );
}

/** What "Anonimizar datos personales" removes and what it keeps, in the dialog before it runs. */
function AnonymiseText() {
  return (
    <>
      <DialogContentText>Esta acción no puede revertirse</DialogContentText>
      <DialogContentText component="div" sx={{ mt: 1 }}>
        Se eliminan:
        <ul>
          <li>
            los nombres y los emails de los expositores del evento (quien está en otro evento
            conserva allí su cuenta);
          </li>
          <li>el contacto de cada nominado: nombre, cargo, teléfono y email;</li>
          <li>los correos del evento, enviados y pendientes;</li>
          <li>los datos personales escritos en el historial.</li>
        </ul>
        Se conservan:
        <ul>
          <li>los ID fiscales, los nombres y las razones sociales de los resellers;</li>
          <li>las nominaciones con su orden, el ranking y las planillas;</li>
          <li>el historial, sin datos personales.</li>
        </ul>
      </DialogContentText>
    </>
  );
}

/**
 * An event's header (name, dates; close voting now while it is open, edit, duplicate, archive,
 * delete; on an archived event
 * "Desarchivar" and "Anonimizar datos personales") above its tabs, each with its own URL.
 */
export default function EventLayout() {
  const { eventId = '' } = useParams();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const client = useQueryClient();
  const toast = useToast();
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('sm'));
  const query = useEvent(eventId);
  const [dialog, setDialog] = useState<DialogName>(null);
  const [deleting, setDeleting] = useState(false);
  const deleteEvent = useDeleteEvent();
  const archive = useArchiveEvent();
  const unarchive = useUnarchiveEvent();
  const anonymise = useAnonymiseEvent();
  const closeVoting = useCloseVoting();
  const tabs = eventTabs(query.data?.categories ?? []);
  const current = tabs.find((tab) => tab.path === pathname.split('/')[4])?.path;
  const loaded = query.isSuccess;
  // On a phone the tabs scroll sideways: bring the current one into view once they are drawn.
  useEffect(() => {
    if (!phone || !loaded || !current) return;
    document
      .getElementById(tabId(current))
      ?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }, [phone, loaded, current]);

  // The event's arrival draws the whole page at once (header, tabs, the tab and its effects). As
  // an update of TanStack Query's store React would draw it in one task, the longest of the page
  // load (Lighthouse's total blocking time); deferred, it draws in slices, the spinner meanwhile.
  const drawn = useDeferredValue(loaded);

  if (query.isPending || (loaded && !drawn)) return <Loading />;
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

  /** Archive, un-archive or anonymise, with a toast saying what happened or why not. */
  async function lifecycle(
    action: typeof archive | typeof unarchive | typeof anonymise | typeof closeVoting,
    done: string,
  ) {
    try {
      await action.mutateAsync({ params: { eventId } });
      toast(done);
    } catch (caught) {
      toast(errorMessage(caught), { severity: 'error', durationMs: 3000 });
    } finally {
      setDialog(null);
    }
  }

  return (
    <Stack spacing={2}>
      <Box>
        <BackButton />
      </Box>
      {/* On a phone the actions go under the title: beside it, eight buttons left the name one
          letter wide. */}
      <Box
        sx={{
          display: 'flex',
          flexDirection: { xs: 'column', sm: 'row' },
          alignItems: 'flex-start',
          gap: 1,
        }}
      >
        <Box sx={{ flexGrow: 1, minWidth: 0, maxWidth: '100%' }}>
          <Typography variant="h1" sx={{ overflowWrap: 'anywhere' }}>
            {event.name}
          </Typography>
          <Box sx={{ display: 'flex', columnGap: 3, rowGap: 0.5, flexWrap: 'wrap', mt: 1 }}>
            <Typography>{`Fecha: ${formatDisplayDate(event.eventDate)}`}</Typography>
            <Typography>{`Límite: ${formatDisplayDate(event.voteDeadline)}`}</Typography>
          </Box>
        </Box>
        <Box
          sx={{
            display: 'flex',
            flexShrink: 0,
            flexWrap: 'wrap',
            justifyContent: { xs: 'flex-start', sm: 'flex-end' },
            ml: { xs: -1, sm: 0 },
          }}
        >
          <ExportEventAction eventId={eventId} />
          <HeaderAction
            label="Vista previa"
            icon={<VisibilityIcon />}
            onClick={() => void navigate(`/admin/event/${eventId}/preview`)}
          />
          {event.status === 'open' ? (
            <HeaderAction
              label="Cerrar votación ahora"
              icon={<EventBusyIcon />}
              onClick={() => setDialog('close')}
            />
          ) : null}
          {event.archived ? null : (
            <HeaderAction
              label="Editar evento"
              icon={<EditIcon />}
              onClick={() => setDialog('edit')}
            />
          )}
          {event.archived ? null : (
            <HeaderAction
              label="Logo del evento"
              icon={<ImageIcon />}
              onClick={() => setDialog('logo')}
            />
          )}
          <HeaderAction
            label="Duplicar evento"
            icon={<ContentCopyIcon />}
            onClick={() => setDialog('duplicate')}
          />
          {event.archived ? (
            <>
              <HeaderAction
                label="Desarchivar"
                icon={<UnarchiveIcon />}
                onClick={() => void lifecycle(unarchive, MSG.eventUnarchivedNotice)}
              />
              {event.anonymised ? null : (
                <HeaderAction
                  label="Anonimizar datos personales"
                  icon={<PersonOffIcon />}
                  danger
                  onClick={() => setDialog('anonymise')}
                />
              )}
            </>
          ) : (
            <HeaderAction
              label="Archivar evento"
              icon={<ArchiveIcon />}
              {...(event.archivable ? {} : { disabledReason: MSG.eventNotOver })}
              onClick={() => setDialog('archive')}
            />
          )}
          {event.archived ? null : (
            <HeaderAction
              label="Eliminar evento"
              icon={<DeleteIcon />}
              danger
              onClick={() => setDialog('delete')}
            />
          )}
        </Box>
      </Box>
      {event.resultsViewedEarly ? (
        // A fact that stays after the close: who opened the sealed results early.
        <Alert severity="warning">{resultsViewedEarlyText(event.resultsViewedEarly.by)}</Alert>
      ) : null}
      {event.archived ? (
        <Alert severity="info">
          {event.anonymised ? MSG.eventArchivedAnonymised : MSG.eventArchivedReadOnly}
        </Alert>
      ) : null}
      <Tabs
        value={current ?? false}
        // Up to ten categories make up to fifteen tabs: they scroll, the current one in view. On a
        // phone with a swipe (arrow buttons would take a fifth of the width), on a desktop with
        // arrows shown only when the tabs overflow.
        variant="scrollable"
        scrollButtons={phone ? false : 'auto'}
        aria-label="Secciones del evento"
        sx={{
          borderBottom: 1,
          borderColor: 'divider',
          // On a phone the last tab fades out at the edge: there is more to swipe to.
          ...(phone
            ? {
                '& [role="tablist"]': { pr: 4 },
                '& > div': {
                  maskImage: 'linear-gradient(to right, #000 calc(100% - 40px), transparent)',
                },
              }
            : {}),
        }}
      >
        {tabs.map((tab) => (
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
        {dialog === 'logo' ? (
          <EventLogoDialog
            eventId={eventId}
            hasOwnLogo={event.hasOwnLogo}
            onSaved={(message) => toast(message)}
            onClose={() => setDialog(null)}
          />
        ) : null}
        {dialog === 'duplicate' ? (
          <EventDialog
            duplicateOf={event}
            onSaved={(copy) => {
              toast(MSG.eventDuplicated);
              void navigate(`/admin/event/${copy.id}/exhibitors`);
            }}
            onClose={() => setDialog(null)}
          />
        ) : null}
      </Suspense>
      <ConfirmDialog
        open={dialog === 'archive'}
        title="¿Archivar evento?"
        text={MSG.archiveEventWarning}
        confirmLabel="Archivar"
        busy={archive.isPending}
        onConfirm={() => void lifecycle(archive, MSG.eventArchivedNotice)}
        onClose={() => setDialog(null)}
      />
      <ConfirmDialog
        open={dialog === 'close'}
        title="¿Cerrar votación ahora?"
        text={MSG.closeVotingWarning}
        confirmLabel="Cerrar votación"
        busy={closeVoting.isPending}
        onConfirm={() => void lifecycle(closeVoting, MSG.votingClosedNotice)}
        onClose={() => setDialog(null)}
      />
      <ConfirmDialog
        open={dialog === 'anonymise'}
        title="¿Anonimizar datos personales?"
        text={<AnonymiseText />}
        confirmLabel="Anonimizar"
        busy={anonymise.isPending}
        onConfirm={() => void lifecycle(anonymise, MSG.eventAnonymisedNotice)}
        onClose={() => setDialog(null)}
      />
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
