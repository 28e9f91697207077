import {
  Box,
  FormControl,
  FormControlLabel,
  FormLabel,
  Radio,
  RadioGroup,
  TableCell,
  TableRow,
  Typography,
} from '@mui/material';
import { useId, useState } from 'react';
import type { CategoryAddress } from '../../../shared/constants.ts';
import { MSG } from '../../../shared/messages.ts';
import type { DuplicateGroupView, MergePreviewResponse } from '../../../shared/schemas/results.ts';
import { FormDialog } from '../../components/FormDialog.tsx';
import { QueryState } from '../../components/QueryState.tsx';
import { useToast } from '../../components/Toasts.tsx';
import { errorMessage } from '../../lib/api.ts';
import { CompactTable } from './CompactTable.tsx';
import { useMerge, useMergePreview } from './queries.ts';

type PreviewRow = MergePreviewResponse['before'][number];

/**
 * "Unificar nominados": the administrator picks the fiscal id that stays ("ID fiscal que queda"),
 * sees the ranking before and after, and merges the group's other ids into it.
 */
export function MergeDialog({
  eventId,
  category,
  group,
  onClose,
}: {
  eventId: string;
  category: CategoryAddress;
  group: DuplicateGroupView;
  onClose(merged: boolean): void;
}) {
  const toast = useToast();
  const labelId = useId();
  // The registry's id stays when the group has one (it is the reseller's known id); otherwise the
  // group comes most points first and that id stays, unless the administrator picks another.
  const [into, setInto] = useState(
    (group.nominees.find((n) => n.inRegistry) ?? group.nominees[0])?.fiscalId ?? '',
  );
  const from = group.nominees.map((n) => n.fiscalId).filter((id) => id !== into);
  const preview = useMergePreview(eventId, category, into, from);
  const merge = useMerge();
  const [error, setError] = useState<string | null>(null);
  const names = new Map(group.nominees.map((n) => [n.fiscalId, n.name]));

  async function submit() {
    setError(null);
    try {
      await merge.mutateAsync({ params: { eventId, category }, body: { into, from } });
      toast(MSG.mergeDone);
      onClose(true);
    } catch (failure) {
      setError(errorMessage(failure));
    }
  }

  return (
    <FormDialog
      open
      title="Unificar nominados"
      submitLabel="Unificar"
      busy={merge.isPending}
      error={error}
      size="md"
      onSubmit={() => void submit()}
      onClose={() => onClose(false)}
    >
      <FormControl>
        <FormLabel id={labelId}>ID fiscal que queda</FormLabel>
        <RadioGroup
          aria-labelledby={labelId}
          name="into"
          value={into}
          onChange={(event) => setInto(event.target.value)}
        >
          {group.nominees.map((nominee) => (
            <FormControlLabel
              key={nominee.fiscalId}
              value={nominee.fiscalId}
              control={<Radio />}
              label={`${nominee.fiscalId} · ${nominee.name} · ${nominee.points} puntos${nominee.inRegistry ? ' · en el padrón' : ''}`}
              sx={{ overflowWrap: 'anywhere' }}
            />
          ))}
        </RadioGroup>
      </FormControl>
      <Typography variant="body2" color="text.secondary">
        {`Los votos de ${from.join(', ')} pasan a ${into}. Si un expositor votó a ambos, queda el mejor puesto.`}
      </Typography>
      <QueryState query={preview}>
        {(data) => (
          <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2 }}>
            <PreviewTable
              title="Antes"
              rows={data.before}
              names={names}
              highlight={[into, ...from]}
            />
            <PreviewTable title="Después" rows={data.after} names={names} highlight={[into]} />
          </Box>
        )}
      </QueryState>
    </FormDialog>
  );
}

/** One side of the preview: position, fiscal id (with the group's name) and points. */
function PreviewTable({
  title,
  rows,
  names,
  highlight,
}: {
  title: string;
  rows: PreviewRow[];
  names: Map<string, string>;
  highlight: string[];
}) {
  return (
    <Box sx={{ flex: '1 1 16rem', minWidth: 0 }}>
      <Typography variant="subtitle2" component="h3">
        {title}
      </Typography>
      <CompactTable label={title} headers={['Puesto', 'ID fiscal', 'Puntos']}>
        {rows.map((row) => {
          const marked = highlight.includes(row.fiscalId);
          return (
            <TableRow key={row.fiscalId} selected={marked}>
              <TableCell>{`${row.position}°`}</TableCell>
              <TableCell sx={{ fontWeight: marked ? 700 : undefined }}>
                {row.fiscalId}
                {names.has(row.fiscalId) ? ` · ${names.get(row.fiscalId) ?? ''}` : ''}
              </TableCell>
              <TableCell align="right">{row.points}</TableCell>
            </TableRow>
          );
        })}
      </CompactTable>
    </Box>
  );
}
