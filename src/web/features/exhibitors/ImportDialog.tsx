import {
  Alert,
  Button,
  Checkbox,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControlLabel,
  Link,
  Stack,
  Typography,
  type ChipProps,
} from '@mui/material';
import { useId, useMemo, useState } from 'react';
import { MSG } from '../../../shared/messages.ts';
import {
  errorsFirst,
  ignoredColumnText,
  ROSTER_MAX_BYTES,
  ROSTER_ROW_STATUS_LABELS,
  rosterImportedText,
  rosterSummaryText,
  SKIPPED_ROWS_FILE_NAME,
  skippedRowsCsv,
  type RosterRowStatus,
} from '../../../shared/roster-messages.ts';
import type {
  RosterImportResponse,
  RosterPreviewResponse,
} from '../../../shared/schemas/exhibitors.ts';
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
  missingEmail: 'error',
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

const isError = (row: PreviewRow) => row.status !== 'new' && row.status !== 'alreadyInEvent';

/** Saves the skipped rows as a CSV file on the administrator's computer. */
function downloadSkipped(rows: RosterImportResponse['skipped']) {
  const href = URL.createObjectURL(
    new Blob([skippedRowsCsv(rows)], { type: 'text/csv;charset=utf-8' }),
  );
  const link = document.createElement('a');
  link.href = href;
  link.download = SKIPPED_ROWS_FILE_NAME;
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(href), 60_000);
}

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
  const [onlyErrors, setOnlyErrors] = useState(false);
  const [done, setDone] = useState<RosterImportResponse | null>(null);
  // Errors on top: with 250 rows, the few to fix are never 9,000 px down (issue 32).
  const shownRows = useMemo(
    () => (result ? errorsFirst(result.rows).filter((row) => !onlyErrors || isError(row)) : []),
    [result, onlyErrors],
  );

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
      // Rows were left out: the dialog stays to offer them as a file, to correct and import.
      if (done.skipped.length > 0) {
        setDone(done);
        setBusy(false);
      } else {
        onClose();
      }
    } catch (caught) {
      setError(refusal(caught));
      setBusy(false);
    }
  }

  if (done) return <ImportDone result={done} onClose={onClose} />;

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
          {result.ignoredColumns.map((header, index) => (
            <Alert key={`${index}-${header}`} severity="warning">
              {ignoredColumnText(header)}
            </Alert>
          ))}
          <FormControlLabel
            control={
              <Checkbox
                checked={onlyErrors}
                onChange={(event) => setOnlyErrors(event.target.checked)}
              />
            }
            label="Mostrar solo errores"
          />
          <DataTable
            label="Vista previa"
            columns={COLUMNS}
            rows={shownRows}
            rowKey={(row) => String(row.row)}
            emptyText={onlyErrors ? MSG.rosterNoErrors : MSG.rosterEmpty}
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

/**
 * After an import that left rows out: what happened, and the rows left out as a file
 * ("Descargar filas omitidas") with their "Estado", to correct and import again.
 */
function ImportDone({ result, onClose }: { result: RosterImportResponse; onClose(): void }) {
  const titleId = useId();
  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} maxWidth="sm" fullWidth>
      <DialogTitle id={titleId}>Importar expositores</DialogTitle>
      <DialogContent>
        <Stack spacing={2}>
          <Typography>{rosterImportedText(result.added, result.invitationsWithheld)}</Typography>
          <Typography sx={{ fontWeight: 700 }}>{rosterSummaryText(result.summary)}</Typography>
          <Link component="button" type="button" onClick={() => downloadSkipped(result.skipped)}>
            Descargar filas omitidas
          </Link>
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button variant="contained" onClick={onClose}>
          Cerrar
        </Button>
      </DialogActions>
    </Dialog>
  );
}
