import { Checkbox, FormControlLabel, Link, Typography, type ChipProps } from '@mui/material';
import { useState } from 'react';
import { MSG } from '../../../shared/messages.ts';
import {
  ROSTER_MAX_BYTES,
  ROSTER_ROW_STATUS_LABELS,
  rosterImportedText,
  rosterSummaryText,
  type RosterRowStatus,
} from '../../../shared/roster-messages.ts';
import type { RosterPreviewResponse } from '../../../shared/schemas/exhibitors.ts';
import { StatusChip } from '../../components/StatusChip.tsx';
import { DataTable, type Column } from '../../components/DataTable.tsx';
import { FileField } from '../../components/FileField.tsx';
import { FormDialog } from '../../components/FormDialog.tsx';
import { useToast } from '../../components/Toasts.tsx';
import { ApiError } from '../../lib/api.ts';
import { useImportRoster, usePreviewRoster } from './queries.ts';

type PreviewRow = RosterPreviewResponse['rows'][number];

const STATUS_COLORS: Record<RosterRowStatus, ChipProps['color']> = {
  new: 'success',
  alreadyInEvent: 'default',
  invalidEmail: 'error',
  missingName: 'error',
  invalidName: 'error',
  invalidCompany: 'error',
  repeatedInFile: 'error',
  isAdmin: 'error',
};

const COLUMNS: Column<PreviewRow>[] = [
  { header: 'Fila', render: (row) => row.row, width: '4rem' },
  { header: 'Nombre completo', render: (row) => row.fullName },
  { header: 'Email', render: (row) => row.email },
  { header: 'Empresa', render: (row) => row.company, hideOnPhone: true },
  {
    header: 'Estado',
    render: (row) => (
      <>
        <StatusChip status={row.status} labels={ROSTER_ROW_STATUS_LABELS} colors={STATUS_COLORS} />
        {row.message && (
          <Typography variant="caption" component="div">
            {row.message}
          </Typography>
        )}
      </>
    ),
  },
];

const refusal = (caught: unknown) =>
  caught instanceof ApiError && caught.status >= 400 && caught.status < 500
    ? caught.message
    : MSG.genericError;

/**
 * "Importar expositores": the chosen file is previewed first (nothing stored), then the same file
 * is sent again to be imported; the server checks every row once more in its transaction, so a
 * preview that went stale meanwhile cannot store a row it would now refuse.
 */
export function ImportDialog({
  eventId,
  onDownloadTemplate,
  onClose,
}: {
  eventId: string;
  onDownloadTemplate(): Promise<void>;
  onClose(): void;
}) {
  const toast = useToast();
  const preview = usePreviewRoster();
  const importFile = useImportRoster();
  const [file, setFile] = useState<File | null>(null);
  const [result, setResult] = useState<RosterPreviewResponse | null>(null);
  const [sendInvitations, setSendInvitations] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const formOf = (chosen: File) => {
    const form = new FormData();
    form.append('file', chosen);
    return form;
  };

  async function choose(chosen: File | undefined) {
    setError(null);
    setResult(null);
    setFile(null);
    if (!chosen) return;
    if (chosen.size > ROSTER_MAX_BYTES) return setError(MSG.rosterTooLarge);
    setBusy(true);
    try {
      setResult(await preview.mutateAsync({ params: { eventId }, form: formOf(chosen) }));
      setFile(chosen);
    } catch (caught) {
      setError(refusal(caught));
    } finally {
      setBusy(false);
    }
  }

  async function confirm() {
    if (!file) return;
    setError(null);
    setBusy(true);
    try {
      const done = await importFile.mutateAsync({
        params: { eventId },
        query: { sendInvitations: sendInvitations ? 'true' : 'false' },
        form: formOf(file),
      });
      toast(rosterImportedText(done.added, done.invitationsWithheld));
      onClose();
    } catch (caught) {
      setError(refusal(caught));
      setBusy(false);
    }
  }

  return (
    <FormDialog
      open
      title="Importar expositores"
      size="lg"
      error={error}
      busy={busy}
      submitLabel="Confirmar importación"
      submitDisabled={!result || result.summary.nuevos === 0}
      onSubmit={() => void confirm()}
      onClose={onClose}
    >
      <FileField
        label="Archivo"
        accept=".csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
        hint="CSV o Excel (.xlsx) de hasta 5 MB con las columnas Nombre completo, Email y Empresa."
        disabled={busy}
        onFile={(chosen) => void choose(chosen)}
      >
        <Link
          component="button"
          type="button"
          onClick={() => void onDownloadTemplate().catch(() => setError(MSG.genericError))}
          sx={{ mt: 1 }}
        >
          Descargar plantilla
        </Link>
      </FileField>
      {result ? (
        <>
          <Typography sx={{ fontWeight: 700 }}>{rosterSummaryText(result.summary)}</Typography>
          <DataTable
            label="Vista previa"
            columns={COLUMNS}
            rows={result.rows}
            rowKey={(row) => String(row.row)}
            emptyText={MSG.rosterEmpty}
          />
        </>
      ) : null}
      <FormControlLabel
        control={
          <Checkbox
            checked={sendInvitations}
            onChange={(event) => setSendInvitations(event.target.checked)}
          />
        }
        label="Enviar invitaciones"
      />
    </FormDialog>
  );
}
