import { Box, Button, Stack, TextField, Typography } from '@mui/material';
import { useState } from 'react';
import { useParams } from 'react-router';
import { formatDisplayInstant } from '../../../shared/dates.ts';
import { HISTORY_ACTION_LABELS } from '../../../shared/history.ts';
import { MSG } from '../../../shared/messages.ts';
import type { HistoryEntry } from '../../../shared/schemas/results.ts';
import { DataTable, type Column } from '../../components/DataTable.tsx';
import { SearchForm } from '../../components/SearchForm.tsx';
import { QueryState } from '../../components/QueryState.tsx';
import { useToast } from '../../components/Toasts.tsx';
import { useEvent, useEventWritable } from '../../features/events/queries.ts';
import { zoneLabel } from '../../../shared/deadline-zone.ts';
import { useHistory, useUndoMerge } from '../../features/results/queries.ts';
import { PhoneOnly } from '../../components/PhoneOnly.tsx';
import { NoWrap } from '../../components/NoWrap.tsx';
import { errorMessage } from '../../lib/api.ts';

/**
 * The event's tab "Historial": every change to it, its exhibitors and its votes, newest first,
 * filtered by action and searched on the server, 50 entries at a time ("Cargar más").
 */
export default function HistoryTab() {
  const { eventId = '' } = useParams();
  const toast = useToast();
  const [action, setAction] = useState('');
  const [q, setQ] = useState('');
  const query = useHistory(eventId, { action, q });
  const undo = useUndoMerge();
  // An archived event's merges stay in its history but cannot be undone.
  const readOnly = !useEventWritable(eventId);
  // Every hour of the event in its own zone, named once above the table.
  const timeZone = useEvent(eventId).data?.timeZone;

  async function undoMerge(entry: HistoryEntry) {
    try {
      await undo.mutateAsync({ params: { eventId, auditId: String(entry.id) } });
      toast(MSG.undoDone);
    } catch (error) {
      toast(errorMessage(error), { severity: 'error' });
    }
  }

  const columns: Column<HistoryEntry>[] = [
    {
      header: 'Fecha',
      width: 110,
      render: (entry) => (
        <>
          <NoWrap>{timeZone ? formatDisplayInstant(entry.at, timeZone) : ''}</NoWrap>
          <PhoneOnly>{entry.actionLabel}</PhoneOnly>
          <PhoneOnly>{entry.who}</PhoneOnly>
        </>
      ),
    },
    { header: 'Quién', hideOnPhone: true, render: (entry) => entry.who },
    { header: 'Acción', hideOnPhone: true, render: (entry) => entry.actionLabel },
    {
      header: 'Detalle',
      render: (entry) => (
        <>
          {entry.detail}
          {entry.undoable && !readOnly ? (
            <Box>
              <Button
                size="small"
                variant="outlined"
                disabled={undo.isPending}
                onClick={() => void undoMerge(entry)}
                sx={{ mt: 0.5 }}
              >
                Deshacer
              </Button>
            </Box>
          ) : null}
        </>
      ),
    },
  ];

  return (
    <Stack spacing={2} sx={{ mt: 2 }}>
      <Typography variant="h2" component="h2">
        Historial
      </Typography>
      <SearchForm
        onSearch={setQ}
        maxLength={100}
        width={320}
        before={
          <TextField
            select
            label="Acción"
            size="small"
            value={action}
            onChange={(event) => setAction(event.target.value)}
            slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
            sx={{ width: { xs: '100%', sm: 260 } }}
          >
            <option value="">Todas</option>
            {Object.entries(HISTORY_ACTION_LABELS).map(([code, label]) => (
              <option key={code} value={code}>
                {label}
              </option>
            ))}
          </TextField>
        }
      />
      <QueryState query={query}>
        {(data) => (
          <>
            {timeZone ? (
              <Typography variant="body2" color="text.secondary">
                {`Fechas y horas en ${zoneLabel(timeZone)}.`}
              </Typography>
            ) : null}
            <DataTable
              label="Historial"
              columns={columns}
              rows={data.pages.flatMap((page) => page.entries)}
              rowKey={(entry) => String(entry.id)}
              emptyText={MSG.noHistory}
            />
            {query.hasNextPage ? (
              <Button
                sx={{ alignSelf: 'center' }}
                disabled={query.isFetchingNextPage}
                onClick={() => void query.fetchNextPage()}
              >
                Cargar más
              </Button>
            ) : null}
          </>
        )}
      </QueryState>
    </Stack>
  );
}
