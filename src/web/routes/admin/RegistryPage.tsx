import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import PlaylistAddIcon from '@mui/icons-material/PlaylistAdd';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import {
  Box,
  Button,
  Checkbox,
  FormControlLabel,
  IconButton,
  Stack,
  TablePagination,
  Tooltip,
  Typography,
} from '@mui/material';
import { useState } from 'react';
import { registryTemplate } from '../../../shared/api/registry.ts';
import { MSG } from '../../../shared/messages.ts';
import { rosterMatchesText } from '../../../shared/roster-texts.ts';
import type { ResellerView } from '../../../shared/schemas/registry.ts';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { DataTable, type Column } from '../../components/DataTable.tsx';
import { QueryState } from '../../components/QueryState.tsx';
import { SearchForm } from '../../components/SearchForm.tsx';
import { useToast } from '../../components/Toasts.tsx';
import { RegistryImportDialog } from '../../features/registry/RegistryImportDialog.tsx';
import { ResellerDialog } from '../../features/registry/ResellerDialog.tsx';
import {
  useRemoveReseller,
  useResellers,
  useUpdateRegistrySettings,
  type RegistryView,
} from '../../features/registry/queries.ts';
import { downloadFile } from '../../features/results/queries.ts';
import { errorMessage } from '../../lib/api.ts';

const countText = (n: number) => (n === 1 ? '1 reseller' : `${n} resellers`);

/**
 * /admin/resellers, "Padrón de resellers": the programme's registry, paged and searched on the
 * server, with its form, its import and "Validar CUIT en el padrón".
 */
export default function RegistryPage() {
  const toast = useToast();
  const [view, setView] = useState<RegistryView>({ page: 1, q: '' });
  const query = useResellers(view);
  const remove = useRemoveReseller();
  const settings = useUpdateRegistrySettings();
  const [editing, setEditing] = useState<{ reseller?: ResellerView } | null>(null);
  const [removing, setRemoving] = useState<ResellerView | null>(null);
  const [importing, setImporting] = useState(false);

  async function confirmRemove(reseller: ResellerView) {
    try {
      await remove.mutateAsync({ params: { fiscalId: reseller.fiscalId } });
      toast(MSG.registryRemoved);
    } catch (caught) {
      toast(errorMessage(caught), { severity: 'error' });
    }
    setRemoving(null);
  }

  async function setValidateCuit(validateCuit: boolean) {
    try {
      await settings.mutateAsync({ body: { validateCuit } });
    } catch (caught) {
      toast(errorMessage(caught), { severity: 'error' });
    }
  }

  const columns: Column<ResellerView>[] = [
    { header: 'ID fiscal', render: (r) => r.fiscalId, noWrap: true },
    { header: 'Nombre del reseller', render: (r) => r.name },
    { header: 'Razón social', render: (r) => r.registeredName, hideOnPhone: true },
    { header: 'Región', render: (r) => r.city, hideOnPhone: true },
    { header: 'Nominaciones', render: (r) => r.nominations, align: 'right' },
    {
      header: 'Acciones',
      align: 'right',
      render: (reseller) => (
        <Box sx={{ display: 'flex', justifyContent: 'flex-end' }}>
          <Tooltip title="Editar en el padrón">
            <IconButton
              aria-label="Editar en el padrón"
              size="small"
              onClick={() => setEditing({ reseller })}
            >
              <EditIcon fontSize="small" />
            </IconButton>
          </Tooltip>
          <Tooltip title="Quitar del padrón">
            <IconButton
              aria-label="Quitar del padrón"
              size="small"
              onClick={() => setRemoving(reseller)}
            >
              <DeleteIcon fontSize="small" />
            </IconButton>
          </Tooltip>
        </Box>
      ),
    },
  ];

  return (
    <Stack spacing={2}>
      <Typography variant="h1">Padrón de resellers</Typography>
      <Box sx={{ display: 'flex', justifyContent: 'flex-end', gap: 1, flexWrap: 'wrap' }}>
        <Button
          variant="outlined"
          startIcon={<UploadFileIcon />}
          onClick={() => setImporting(true)}
        >
          Importar
        </Button>
        <Button variant="contained" startIcon={<PlaylistAddIcon />} onClick={() => setEditing({})}>
          Agregar al padrón
        </Button>
      </Box>
      <SearchForm maxLength={200} width={320} onSearch={(q) => setView({ page: 1, q })} />
      <QueryState query={query}>
        {(data) => (
          <>
            <FormControlLabel
              control={
                <Checkbox
                  checked={data.validateCuit}
                  disabled={settings.isPending}
                  onChange={(event) => void setValidateCuit(event.target.checked)}
                />
              }
              label="Validar CUIT en el padrón"
            />
            <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap' }}>
              <Typography sx={{ fontWeight: 700 }}>{countText(data.all)}</Typography>
              {view.q !== '' ? (
                <Typography color="text.secondary">{rosterMatchesText(data.total)}</Typography>
              ) : null}
            </Box>
            <DataTable
              label="Padrón de resellers"
              columns={columns}
              rows={data.resellers}
              rowKey={(reseller) => reseller.fiscalId}
              emptyText={MSG.registryEmpty}
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
        <ResellerDialog
          {...(editing.reseller ? { reseller: editing.reseller } : {})}
          onClose={() => setEditing(null)}
        />
      ) : null}
      <ConfirmDialog
        open={removing !== null}
        title="¿Quitar del padrón?"
        text={
          removing
            ? `${removing.name} (${removing.fiscalId}) dejará de estar en el padrón. Las nominaciones ya guardadas no cambian.`
            : ''
        }
        confirmLabel="Quitar"
        destructive
        busy={remove.isPending}
        onConfirm={() => removing && void confirmRemove(removing)}
        onClose={() => setRemoving(null)}
      />
      {importing ? (
        <RegistryImportDialog
          onDownloadTemplate={() => downloadFile(registryTemplate, {})}
          onClose={() => setImporting(false)}
        />
      ) : null}
    </Stack>
  );
}
