import { Alert, Link, Typography, type ChipProps } from '@mui/material';
import { useState } from 'react';
import { MSG } from '../../../shared/messages.ts';
import {
  isRegistryRowError,
  REGISTRY_MAX_BYTES,
  REGISTRY_ROW_STATUS_LABELS,
  registryImportedText,
  registrySummaryText,
  type RegistryRowStatus,
} from '../../../shared/registry.ts';
import { ignoredColumnText } from '../../../shared/roster-messages.ts';
import type {
  RegistryPreviewResponse,
  RegistryPreviewRow,
} from '../../../shared/schemas/registry.ts';
import { DataTable, type Column } from '../../components/DataTable.tsx';
import { FileField } from '../../components/FileField.tsx';
import { FormDialog } from '../../components/FormDialog.tsx';
import { StatusChip } from '../../components/StatusChip.tsx';
import { useToast } from '../../components/Toasts.tsx';
import { ApiError } from '../../lib/api.ts';
import { useImportRegistry, usePreviewRegistryImport } from './queries.ts';

const STATUS_COLORS: Record<RegistryRowStatus, ChipProps['color']> = {
  new: 'success',
  update: 'primary',
  unchanged: 'default',
  invalidFiscalId: 'error',
  missingName: 'error',
  invalidValue: 'error',
  repeatedInFile: 'error',
};

const COLUMNS: Column<RegistryPreviewRow>[] = [
  { header: 'Fila', render: (row) => row.row, width: '4rem' },
  { header: 'ID fiscal', render: (row) => row.fiscalId },
  { header: 'Nombre del reseller', render: (row) => row.name },
  {
    header: 'Estado',
    render: (row) => (
      <>
        <StatusChip
          status={row.status}
          labels={REGISTRY_ROW_STATUS_LABELS}
          colors={STATUS_COLORS}
        />
        {row.message && (
          <Typography variant="caption" component="div">
            {row.message}
          </Typography>
        )}
      </>
    ),
  },
];

/** Rows shown at most in the preview: the errors first, so the ones to fix are on top. */
const PREVIEW_ROWS = 500;

const refusal = (caught: unknown) =>
  caught instanceof ApiError && caught.status >= 400 && caught.status < 500
    ? caught.message
    : MSG.genericError;

/**
 * "Importar padrón": the chosen file is previewed (nothing stored), then sent again to be imported
 * in one transaction; the server classifies every row once more inside it.
 */
export function RegistryImportDialog({
  onDownloadTemplate,
  onClose,
}: {
  onDownloadTemplate(): Promise<void>;
  onClose(): void;
}) {
  const toast = useToast();
  const preview = usePreviewRegistryImport();
  const importFile = useImportRegistry();
  const [file, setFile] = useState<File | null>(null);
  const [result, setResult] = useState<RegistryPreviewResponse | null>(null);
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
    if (chosen.size > REGISTRY_MAX_BYTES) return setError(MSG.registryTooLarge);
    setBusy(true);
    try {
      setResult(await preview.mutateAsync({ form: formOf(chosen) }));
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
      const done = await importFile.mutateAsync({ form: formOf(file) });
      toast(registryImportedText(done.summary));
      onClose();
    } catch (caught) {
      setError(refusal(caught));
      setBusy(false);
    }
  }

  const rows = result
    ? [...result.rows]
        .sort(
          (a, b) =>
            Number(isRegistryRowError(b.status)) - Number(isRegistryRowError(a.status)) ||
            a.row - b.row,
        )
        .slice(0, PREVIEW_ROWS)
    : [];

  return (
    <FormDialog
      open
      title="Importar padrón"
      size="lg"
      error={error}
      busy={busy}
      submitLabel="Confirmar importación"
      submitDisabled={!result || result.summary.nuevos + result.summary.actualizados === 0}
      onSubmit={() => void confirm()}
      onClose={onClose}
    >
      <FileField
        label="Archivo"
        accept=".csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
        hint="CSV o Excel (.xlsx) de hasta 10 MB con las columnas ID fiscal y Nombre del reseller (y, si las tiene, Razón social, Localidad, Región y el contacto)."
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
          <Typography sx={{ fontWeight: 700 }}>{registrySummaryText(result.summary)}</Typography>
          {result.ignoredColumns.map((header, index) => (
            <Alert key={`${index}-${header}`} severity="warning">
              {ignoredColumnText(header)}
            </Alert>
          ))}
          <DataTable
            label="Vista previa"
            columns={COLUMNS}
            rows={rows}
            rowKey={(row) => String(row.row)}
            emptyText={MSG.rosterEmpty}
          />
          {result.rows.length > PREVIEW_ROWS ? (
            <Typography variant="body2" color="text.secondary">
              {`Se muestran ${PREVIEW_ROWS} de ${result.rows.length} filas, primero las que tienen errores.`}
            </Typography>
          ) : null}
        </>
      ) : null}
    </FormDialog>
  );
}
