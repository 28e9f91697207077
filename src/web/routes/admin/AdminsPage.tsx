import BlockIcon from '@mui/icons-material/Block';
import SendIcon from '@mui/icons-material/Send';
import { Box, IconButton, Stack, Tooltip, Typography, type ChipProps } from '@mui/material';
import { useState } from 'react';
import { formatDisplayInstant } from '../../../shared/dates.ts';
import { zoneLabel } from '../../../shared/deadline-zone.ts';
import { MSG } from '../../../shared/messages.ts';
import {
  ADMIN_STATUS_LABEL,
  type AdminRow,
  type AdminStatus,
} from '../../../shared/schemas/admins.ts';
import { PhoneOnly } from '../../components/PhoneOnly.tsx';
import { StatusChip } from '../../components/StatusChip.tsx';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { DataTable, type Column } from '../../components/DataTable.tsx';
import { QueryState } from '../../components/QueryState.tsx';
import { useToast } from '../../components/Toasts.tsx';
import {
  useAdmins,
  useResendAdminInvitation,
  useRevokeAdmin,
} from '../../features/admins/queries.ts';
import { errorMessage } from '../../lib/api.ts';

const STATUS_COLORS: Record<AdminStatus, ChipProps['color']> = {
  active: 'success',
  pending: 'default',
  revoked: 'error',
};

/** "Último ingreso" in the administrator's own clock. */
const localZone = Intl.DateTimeFormat().resolvedOptions().timeZone;

/** /admin/admins: who has access, re-sending a pending invitation, revoking access. */
export default function AdminsPage() {
  const toast = useToast();
  const query = useAdmins();
  const resend = useResendAdminInvitation();
  const revoke = useRevokeAdmin();
  const [revoking, setRevoking] = useState<AdminRow | null>(null);

  /** Runs one row action: its message when done, the server's when refused. */
  async function act(send: () => Promise<unknown>, done: string) {
    try {
      await send();
      toast(done);
    } catch (caught) {
      toast(errorMessage(caught), { severity: 'error' });
    }
  }

  const resendTo = (admin: AdminRow) =>
    act(() => resend.mutateAsync({ params: { adminId: admin.id } }), MSG.adminInvitationSent);

  async function confirmRevoke(admin: AdminRow) {
    await act(() => revoke.mutateAsync({ params: { adminId: admin.id } }), MSG.adminRevoked);
    setRevoking(null);
  }

  const actions = (admin: AdminRow) => (
    <Box sx={{ display: 'flex', justifyContent: 'flex-end' }}>
      {admin.status === 'pending' ? (
        <Tooltip title="Reenviar invitación">
          <span>
            <IconButton
              aria-label="Reenviar invitación"
              size="small"
              disabled={resend.isPending}
              onClick={() => void resendTo(admin)}
            >
              <SendIcon fontSize="small" />
            </IconButton>
          </span>
        </Tooltip>
      ) : null}
      {admin.status !== 'revoked' && !admin.self ? (
        <Tooltip title="Revocar acceso">
          <IconButton
            aria-label="Revocar acceso"
            size="small"
            color="error"
            onClick={() => setRevoking(admin)}
          >
            <BlockIcon fontSize="small" />
          </IconButton>
        </Tooltip>
      ) : null}
    </Box>
  );

  const columns: Column<AdminRow>[] = [
    {
      header: 'Nombre',
      render: (admin) => (
        <>
          {admin.fullName ?? '—'}
          <PhoneOnly>{admin.email}</PhoneOnly>
        </>
      ),
    },
    { header: 'Email', render: (admin) => admin.email, hideOnPhone: true },
    {
      header: 'Estado',
      render: (admin) => (
        <StatusChip status={admin.status} labels={ADMIN_STATUS_LABEL} colors={STATUS_COLORS} />
      ),
    },
    {
      header: 'Último ingreso',
      hideOnPhone: true,
      noWrap: true,
      render: (admin) =>
        admin.lastSignedInAt ? formatDisplayInstant(admin.lastSignedInAt, localZone) : '—',
    },
    {
      header: 'Verificación en dos pasos',
      hideOnPhone: true,
      render: (admin) => (admin.mfaEnabled ? 'Sí' : 'No'),
    },
    { header: 'Acciones', align: 'right', keepWords: true, render: actions },
  ];

  return (
    <Stack spacing={2}>
      <Typography variant="h1">Administradores</Typography>
      {/* Sign-ins belong to no event: they are read in this browser's zone, named here. */}
      <Typography variant="body2" color="text.secondary">
        {`Fechas y horas en ${zoneLabel(localZone)}.`}
      </Typography>
      <QueryState query={query}>
        {(data) => (
          <DataTable
            label="Administradores"
            columns={columns}
            rows={data.admins}
            rowKey={(admin) => admin.id}
            emptyText="No hay administradores."
          />
        )}
      </QueryState>
      <ConfirmDialog
        open={revoking !== null}
        title="¿Revocar acceso?"
        text={
          revoking
            ? `${revoking.fullName ?? revoking.email} dejará de tener acceso: sus sesiones terminan ahora y su invitación pendiente deja de valer.`
            : ''
        }
        confirmLabel="Revocar"
        busy={revoke.isPending}
        onConfirm={() => revoking && void confirmRevoke(revoking)}
        onClose={() => setRevoking(null)}
      />
    </Stack>
  );
}
