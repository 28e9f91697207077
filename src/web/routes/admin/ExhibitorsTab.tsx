import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import PersonAddIcon from '@mui/icons-material/PersonAdd';
import SendIcon from '@mui/icons-material/Send';
import DeleteSweepIcon from '@mui/icons-material/DeleteSweep';
import ForwardToInboxIcon from '@mui/icons-material/ForwardToInbox';
import {
  Box,
  Button,
  Checkbox,
  IconButton,
  Link,
  MenuItem,
  Stack,
  TablePagination,
  TextField,
  Tooltip,
  Typography,
  type ChipProps,
} from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link as RouterLink, useParams } from 'react-router';
import { rosterTemplate } from '../../../shared/api/exhibitors.ts';
import { MSG } from '../../../shared/messages.ts';
import {
  INVITATION_STATUS_LABELS,
  ROSTER_INVITATION_FILTER_LABELS,
  ROSTER_INVITATION_FILTERS,
  type EventExhibitorView,
  type InvitationStatus,
  type RosterInvitationFilter,
} from '../../../shared/schemas/exhibitors.ts';
import {
  bulkRemovalText,
  bulkRemovedText,
  bulkResentText,
  exhibitorAddedText,
  exhibitorEditedText,
  rosterCountText,
  rosterMatchesText,
  rosterSelectedText,
} from '../../../shared/roster-texts.ts';
import { SearchForm } from '../../components/SearchForm.tsx';
import { errorMessage } from '../../lib/api.ts';
import { StatusChip } from '../../components/StatusChip.tsx';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { DataTable, type Column } from '../../components/DataTable.tsx';
import { useToast } from '../../components/Toasts.tsx';
import { useEventWritable } from '../../features/events/queries.ts';
import { ExhibitorDialog } from '../../features/exhibitors/ExhibitorDialog.tsx';
import { ImportDialog } from '../../features/exhibitors/ImportDialog.tsx';
import { PendingInvitationsAction } from '../../features/exhibitors/PendingInvitations.tsx';
import { downloadFile } from '../../features/results/queries.ts';
import {
  useBulkRemovalImpact,
  useEventExhibitors,
  useRemovalImpact,
  useRemoveExhibitor,
  useRemoveExhibitors,
  useResendInvitation,
  useResendInvitations,
  type RosterView,
} from '../../features/exhibitors/queries.ts';
import { QueryState } from '../../components/QueryState.tsx';

const STATUS_COLORS: Record<InvitationStatus, ChipProps['color']> = {
  pending: 'default',
  sent: 'success',
  failed: 'error',
  none: 'default',
};

/** The confirmation says what the removal discards (design: nothing is lost by surprise). */
function removalText(exhibitor: EventExhibitorView, nominations: number): string {
  const who = `Se quitará a ${exhibitor.fullName} de este evento`;
  if (nominations === 0) return `${who}. No tiene nominaciones en él.`;
  if (nominations === 1) return `${who} y se descartará su nominación en él.`;
  return `${who} y se descartarán sus ${nominations} nominaciones en él.`;
}

const isInvitationFilter = (value: string): value is RosterInvitationFilter =>
  (ROSTER_INVITATION_FILTERS as readonly string[]).includes(value);

export default function ExhibitorsTab() {
  const { eventId = '' } = useParams();
  const readOnly = !useEventWritable(eventId);
  const client = useQueryClient();
  const toast = useToast();
  // The server pages, searches and sorts (a roster of 250 and more): the tab asks for one page.
  const [view, setView] = useState<RosterView>({ page: 1, q: '', invitation: 'all' });
  const query = useEventExhibitors(eventId, view);
  const [importing, setImporting] = useState(false);
  // The exhibitor dialog: adding one (no exhibitor) or editing one.
  const [editing, setEditing] = useState<{ exhibitor?: EventExhibitorView } | null>(null);
  const [removing, setRemoving] = useState<EventExhibitorView | null>(null);
  const [busy, setBusy] = useState(false);
  const [resending, setResending] = useState<string | null>(null);
  // Ticked rows, by id, kept across pages until a bulk action runs or the search changes.
  const [selected, setSelected] = useState<ReadonlyMap<string, EventExhibitorView>>(new Map());
  const [bulkRemoval, setBulkRemoval] = useState<{
    exhibitors: number;
    nominations: number;
  } | null>(null);
  const impact = useRemovalImpact(eventId, removing?.id);
  const resendMutation = useResendInvitation();
  const removeMutation = useRemoveExhibitor();
  const bulkResend = useResendInvitations();
  const bulkImpact = useBulkRemovalImpact();
  const bulkRemove = useRemoveExhibitors();
  const selection = { exhibitorIds: [...selected.keys()] };

  const changeView = (change: Partial<RosterView>) => {
    setView((current) => ({ ...current, page: 1, ...change }));
    setSelected(new Map());
  };

  const toggle = (rows: EventExhibitorView[], on: boolean) =>
    setSelected((current) => {
      const next = new Map(current);
      for (const row of rows) {
        if (on) next.set(row.id, row);
        else next.delete(row.id);
      }
      return next;
    });

  async function resend(exhibitor: EventExhibitorView) {
    setResending(exhibitor.id);
    try {
      await resendMutation.mutateAsync({ params: { eventId, exhibitorId: exhibitor.id } });
      toast(MSG.invitationResent);
    } catch {
      toast(MSG.notificationFailed, { severity: 'error' });
    } finally {
      setResending(null);
    }
  }

  async function remove(exhibitor: EventExhibitorView) {
    setBusy(true);
    try {
      await removeMutation.mutateAsync({ params: { eventId, exhibitorId: exhibitor.id } });
      toggle([exhibitor], false);
    } catch {
      toast(MSG.genericError, { severity: 'error' });
      // The list on screen may be what failed (removed elsewhere): show the stored one.
      void client.invalidateQueries({ queryKey: ['GET', '/api/events/:eventId/exhibitors'] });
    } finally {
      setBusy(false);
      setRemoving(null);
    }
  }

  async function resendSelected() {
    try {
      const outcome = await bulkResend.mutateAsync({ params: { eventId }, body: selection });
      toast(bulkResentText(outcome.resent, outcome.limited), {
        severity: outcome.limited > 0 ? 'warning' : 'success',
        durationMs: outcome.limited > 0 ? 10_000 : 4000,
      });
      setSelected(new Map());
    } catch (caught) {
      toast(errorMessage(caught), { severity: 'error' });
    }
  }

  async function askBulkRemoval() {
    try {
      setBulkRemoval(await bulkImpact.mutateAsync({ params: { eventId }, body: selection }));
    } catch (caught) {
      toast(errorMessage(caught), { severity: 'error' });
    }
  }

  async function removeSelected() {
    try {
      const outcome = await bulkRemove.mutateAsync({ params: { eventId }, body: selection });
      toast(bulkRemovedText(outcome.removed, outcome.discardedNominations));
      setSelected(new Map());
    } catch (caught) {
      toast(errorMessage(caught), { severity: 'error' });
    } finally {
      setBulkRemoval(null);
    }
  }

  const rowActions = (exhibitor: EventExhibitorView) =>
    readOnly ? null : (
      <Box sx={{ display: 'flex', justifyContent: 'flex-end' }}>
        <Tooltip title="Editar expositor">
          <IconButton
            aria-label="Editar expositor"
            size="small"
            onClick={() => setEditing({ exhibitor })}
          >
            <EditIcon />
          </IconButton>
        </Tooltip>
        {removeButton(exhibitor)}
      </Box>
    );

  const removeButton = (exhibitor: EventExhibitorView) => (
    <Tooltip title="Eliminar expositor">
      <IconButton
        aria-label="Eliminar expositor"
        color="error"
        size="small"
        onClick={() => setRemoving(exhibitor)}
      >
        <DeleteIcon />
      </IconButton>
    </Tooltip>
  );

  const pageRows = query.data?.exhibitors ?? [];
  const ticked = pageRows.filter((row) => selected.has(row.id)).length;
  const selectColumn: Column<EventExhibitorView> = {
    header: 'Selección',
    width: '3rem',
    headerContent: (
      <Checkbox
        size="small"
        disabled={pageRows.length === 0}
        checked={pageRows.length > 0 && ticked === pageRows.length}
        indeterminate={ticked > 0 && ticked < pageRows.length}
        onChange={(event) => toggle(pageRows, event.target.checked)}
        slotProps={{ input: { 'aria-label': 'Seleccionar todos' } }}
      />
    ),
    render: (exhibitor) => (
      <Checkbox
        size="small"
        checked={selected.has(exhibitor.id)}
        onChange={(event) => toggle([exhibitor], event.target.checked)}
        slotProps={{ input: { 'aria-label': `Seleccionar ${exhibitor.fullName}` } }}
      />
    ),
  };

  const columns: Column<EventExhibitorView>[] = [
    ...(readOnly ? [] : [selectColumn]),
    {
      header: 'Nombre completo',
      render: (exhibitor) => (
        <Link component={RouterLink} to={`/admin/event/${eventId}/exhibitors/${exhibitor.id}`}>
          {exhibitor.fullName}
        </Link>
      ),
    },
    { header: 'Email', render: (exhibitor) => exhibitor.email },
    { header: 'Empresa', render: (exhibitor) => exhibitor.company, hideOnPhone: true },
    {
      header: 'Invitación',
      render: (exhibitor) => (
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5, flexWrap: 'wrap' }}>
          <StatusChip
            status={exhibitor.invitation.status}
            labels={INVITATION_STATUS_LABELS}
            colors={STATUS_COLORS}
          />
          {readOnly ? null : (
            <Box sx={{ display: 'flex' }}>
              <Tooltip title="Reenviar invitación">
                <span>
                  <IconButton
                    aria-label="Reenviar invitación"
                    size="small"
                    disabled={resending === exhibitor.id}
                    onClick={() => void resend(exhibitor)}
                  >
                    <SendIcon fontSize="small" />
                  </IconButton>
                </span>
              </Tooltip>
              {/* Phones have no room for a column of its own (the desktop one is hidden there). */}
              <Box sx={{ display: { xs: 'block', sm: 'none' } }}>{rowActions(exhibitor)}</Box>
            </Box>
          )}
          {exhibitor.invitation.status === 'failed' ? (
            <Typography variant="caption" color="error" sx={{ width: '100%' }}>
              {MSG.notificationFailed}
            </Typography>
          ) : null}
        </Box>
      ),
    },
    ...(readOnly
      ? []
      : [
          {
            header: 'Acciones',
            align: 'right' as const,
            hideOnPhone: true,
            render: rowActions,
          },
        ]),
  ];

  return (
    <Stack spacing={2}>
      {readOnly ? null : (
        <Box
          sx={{
            display: 'flex',
            justifyContent: 'flex-end',
            gap: 1,
            flexWrap: 'wrap',
          }}
        >
          <PendingInvitationsAction eventId={eventId} />
          <Button
            variant="outlined"
            startIcon={<UploadFileIcon />}
            onClick={() => setImporting(true)}
          >
            Importar
          </Button>
          <Button variant="contained" startIcon={<PersonAddIcon />} onClick={() => setEditing({})}>
            Expositor
          </Button>
        </Box>
      )}
      {/* The select stays outside the search form: a second text-like input there (the select's
          own) would stop Enter from submitting the search. */}
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap' }}>
        <SearchForm maxLength={200} width={320} onSearch={(q) => changeView({ q })} />
        <TextField
          select
          label="Invitación"
          size="small"
          value={view.invitation}
          onChange={(event) => {
            if (isInvitationFilter(event.target.value)) {
              changeView({ invitation: event.target.value });
            }
          }}
          sx={{ minWidth: 160 }}
        >
          {ROSTER_INVITATION_FILTERS.map((filter) => (
            <MenuItem key={filter} value={filter}>
              {ROSTER_INVITATION_FILTER_LABELS[filter]}
            </MenuItem>
          ))}
        </TextField>
      </Box>
      <QueryState query={query}>
        {(data) => (
          <>
            <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap' }}>
              <Typography sx={{ fontWeight: 700 }}>{rosterCountText(data.all)}</Typography>
              {view.q !== '' || view.invitation !== 'all' ? (
                <Typography color="text.secondary">{rosterMatchesText(data.total)}</Typography>
              ) : null}
              <Box sx={{ flexGrow: 1 }} />
              {readOnly ? null : (
                <>
                  {selected.size > 0 ? (
                    <Typography color="text.secondary">
                      {rosterSelectedText(selected.size)}
                    </Typography>
                  ) : null}
                  <Button
                    variant="outlined"
                    startIcon={<ForwardToInboxIcon />}
                    disabled={selected.size === 0 || bulkResend.isPending}
                    onClick={() => void resendSelected()}
                  >
                    Reenviar invitaciones
                  </Button>
                  <Button
                    variant="outlined"
                    color="error"
                    startIcon={<DeleteSweepIcon />}
                    disabled={selected.size === 0 || bulkImpact.isPending}
                    onClick={() => void askBulkRemoval()}
                  >
                    Eliminar expositores
                  </Button>
                </>
              )}
            </Box>
            <DataTable
              label="Expositores"
              columns={columns}
              rows={data.exhibitors}
              rowKey={(exhibitor) => exhibitor.id}
              emptyText={MSG.noExhibitors}
            />
            {data.total > data.pageSize ? (
              <TablePagination
                component="div"
                count={data.total}
                page={data.page - 1}
                onPageChange={(_, next) => setView((current) => ({ ...current, page: next + 1 }))}
                rowsPerPage={data.pageSize}
                rowsPerPageOptions={[]}
                showFirstButton
                showLastButton
                sx={{ '& .MuiTablePagination-toolbar': { px: 0 } }}
              />
            ) : null}
          </>
        )}
      </QueryState>
      {editing ? (
        <ExhibitorDialog
          eventId={eventId}
          exhibitor={editing.exhibitor}
          onAdded={(row) => {
            const before = editing.exhibitor;
            setEditing(null);
            // Withheld by the hourly limit: the dialog has already said so in its own warning.
            if (row.invitationWithheld) return;
            toast(
              before
                ? exhibitorEditedText(
                    row.fullName,
                    row.email !== before.email && row.invitation.status === 'pending'
                      ? row.email
                      : null,
                  )
                : exhibitorAddedText(row.fullName),
            );
          }}
          onClose={() => setEditing(null)}
        />
      ) : null}
      {importing ? (
        <ImportDialog
          eventId={eventId}
          onDownloadTemplate={() => downloadFile(rosterTemplate, {})}
          onClose={() => setImporting(false)}
        />
      ) : null}
      <ConfirmDialog
        open={Boolean(removing) && !impact.isPending}
        title="¿Eliminar expositor?"
        text={
          removing && impact.data
            ? removalText(removing, impact.data.nominations)
            : `Se quitará a ${removing?.fullName ?? ''} de este evento junto con sus nominaciones en él.`
        }
        confirmLabel="Eliminar"
        busy={busy}
        onConfirm={() => removing && void remove(removing)}
        onClose={() => setRemoving(null)}
      />
      <ConfirmDialog
        open={bulkRemoval !== null}
        title="¿Eliminar expositores?"
        text={bulkRemoval ? bulkRemovalText(bulkRemoval.exhibitors, bulkRemoval.nominations) : ''}
        confirmLabel="Eliminar"
        busy={bulkRemove.isPending}
        onConfirm={() => void removeSelected()}
        onClose={() => setBulkRemoval(null)}
      />
    </Stack>
  );
}
