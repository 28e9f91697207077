import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import PersonAddIcon from '@mui/icons-material/PersonAdd';
import SendIcon from '@mui/icons-material/Send';
import {
  Box,
  Button,
  IconButton,
  Link,
  Stack,
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
  type EventExhibitorView,
  type InvitationStatus,
} from '../../../shared/schemas/exhibitors.ts';
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
  exhibitorsQuery,
  useEventExhibitors,
  useRemovalImpact,
  useRemoveExhibitor,
  useResendInvitation,
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

export default function ExhibitorsTab() {
  const { eventId = '' } = useParams();
  const readOnly = !useEventWritable(eventId);
  const client = useQueryClient();
  const toast = useToast();
  const query = useEventExhibitors(eventId);
  const [importing, setImporting] = useState(false);
  // The exhibitor dialog: adding one (no exhibitor) or editing one.
  const [editing, setEditing] = useState<{ exhibitor?: EventExhibitorView } | null>(null);
  const [removing, setRemoving] = useState<EventExhibitorView | null>(null);
  const [busy, setBusy] = useState(false);
  const [resending, setResending] = useState<string | null>(null);
  const impact = useRemovalImpact(eventId, removing?.id);
  const resendMutation = useResendInvitation();
  const removeMutation = useRemoveExhibitor();
  const listKey = exhibitorsQuery(eventId).queryKey;

  const replaceRow = (row: EventExhibitorView) =>
    client.setQueryData(listKey, (data) =>
      data
        ? {
            exhibitors: data.exhibitors.some((e) => e.id === row.id)
              ? data.exhibitors.map((e) => (e.id === row.id ? row : e))
              : [...data.exhibitors, row],
          }
        : { exhibitors: [row] },
    );

  async function resend(exhibitor: EventExhibitorView) {
    setResending(exhibitor.id);
    try {
      replaceRow(
        await resendMutation.mutateAsync({ params: { eventId, exhibitorId: exhibitor.id } }),
      );
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
      client.setQueryData(listKey, (data) =>
        data ? { exhibitors: data.exhibitors.filter((e) => e.id !== exhibitor.id) } : data,
      );
    } catch {
      toast(MSG.genericError, { severity: 'error' });
      // The list on screen may be what failed (removed elsewhere): show the stored one.
      void client.invalidateQueries({ queryKey: listKey });
    } finally {
      setBusy(false);
      setRemoving(null);
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

  const columns: Column<EventExhibitorView>[] = [
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
      <QueryState query={query}>
        {(data) => (
          <DataTable
            label="Expositores"
            columns={columns}
            rows={data.exhibitors}
            rowKey={(exhibitor) => exhibitor.id}
            emptyText={MSG.noExhibitors}
          />
        )}
      </QueryState>
      {editing ? (
        <ExhibitorDialog
          eventId={eventId}
          exhibitor={editing.exhibitor}
          onAdded={(row) => {
            replaceRow(row);
            setEditing(null);
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
    </Stack>
  );
}
