import {
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Paper,
  TableCell,
  TableRow,
  Typography,
  useMediaQuery,
  useTheme,
} from '@mui/material';
import { useId, useState } from 'react';
import type { CategoryAddress } from '../../../shared/constants.ts';
import { DUPLICATE_REASON_LABELS } from '../../../shared/duplicate-reasons.ts';
import { MSG } from '../../../shared/messages.ts';
import type { DuplicateGroupView } from '../../../shared/schemas/results.ts';
import { QueryState } from '../../components/QueryState.tsx';
import { CompactTable } from './CompactTable.tsx';
import { MergeDialog } from './MergeDialog.tsx';
import { useDuplicates } from './queries.ts';

/**
 * The category tab's button "Posibles duplicados" ("Posibles duplicados ({n})" with n groups
 * found): the dialog of groups of fiscal ids that are probably one reseller, each with
 * "Unificar", which opens "Unificar nominados" for that group.
 */
export function DuplicatesAction({
  eventId,
  category,
}: {
  eventId: string;
  category: CategoryAddress;
}) {
  const [open, setOpen] = useState(false);
  const [merging, setMerging] = useState<DuplicateGroupView | null>(null);
  // The same query the dialog reads: the count is there before the button is pressed.
  const groups = useDuplicates(eventId, category).data?.groups.length ?? 0;
  return (
    <>
      <Button variant="outlined" size="small" onClick={() => setOpen(true)}>
        {groups > 0 ? `Posibles duplicados (${groups})` : 'Posibles duplicados'}
      </Button>
      {open && !merging ? (
        <DuplicatesDialog
          eventId={eventId}
          category={category}
          onMerge={setMerging}
          onClose={() => setOpen(false)}
        />
      ) : null}
      {merging ? (
        <MergeDialog
          eventId={eventId}
          category={category}
          group={merging}
          // Back to the groups on "Cancelar"; a done merge closes both.
          onClose={(merged) => {
            setMerging(null);
            if (merged) setOpen(false);
          }}
        />
      ) : null}
    </>
  );
}

function DuplicatesDialog({
  eventId,
  category,
  onMerge,
  onClose,
}: {
  eventId: string;
  category: CategoryAddress;
  onMerge(group: DuplicateGroupView): void;
  onClose(): void;
}) {
  const titleId = useId();
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('sm'));
  const query = useDuplicates(eventId, category);
  return (
    <Dialog
      open
      onClose={onClose}
      aria-labelledby={titleId}
      maxWidth="md"
      fullWidth
      fullScreen={phone}
    >
      <DialogTitle id={titleId}>Posibles duplicados</DialogTitle>
      <DialogContent>
        <QueryState query={query}>
          {(data) =>
            data.groups.length === 0 ? (
              <Typography color="text.secondary">{MSG.noDuplicates}</Typography>
            ) : (
              <Box component="ul" sx={{ listStyle: 'none', p: 0, m: 0 }}>
                {data.groups.map((group, index) => (
                  <GroupItem
                    key={group.nominees.map((n) => n.fiscalId).join('-')}
                    group={group}
                    number={index + 1}
                    onMerge={() => onMerge(group)}
                  />
                ))}
              </Box>
            )
          }
        </QueryState>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cerrar</Button>
      </DialogActions>
    </Dialog>
  );
}

function GroupItem({
  group,
  number,
  onMerge,
}: {
  group: DuplicateGroupView;
  number: number;
  onMerge(): void;
}) {
  const reasons = group.reasons.map((reason) => DUPLICATE_REASON_LABELS[reason]).join(' · ');
  return (
    <Paper component="li" variant="outlined" sx={{ p: { xs: 1, sm: 2 }, mb: 1.5 }}>
      <Box
        sx={{
          display: 'flex',
          alignItems: 'center',
          justifyContent: 'space-between',
          flexWrap: 'wrap',
          gap: 1,
        }}
      >
        <Typography variant="body2" color="text.secondary" sx={{ flex: '1 1 12rem' }}>
          {reasons}
        </Typography>
        <Button variant="contained" size="small" onClick={onMerge}>
          Unificar
        </Button>
      </Box>
      <CompactTable
        label={`Grupo ${number}`}
        headers={['ID fiscal', 'Nombre', 'Puntos']}
        sx={{
          mt: 1,
          // Headers and fiscal ids stay whole on a phone; the names wrap.
          '& th, & td:first-of-type': { overflowWrap: 'normal', whiteSpace: 'nowrap' },
        }}
      >
        {group.nominees.map((nominee) => (
          <TableRow key={nominee.fiscalId}>
            <TableCell>{nominee.fiscalId}</TableCell>
            <TableCell>
              {nominee.name}
              {nominee.registeredName && nominee.registeredName !== nominee.name ? (
                <Typography component="span" variant="body2" color="text.secondary">
                  {` (${nominee.registeredName})`}
                </Typography>
              ) : null}
              {nominee.inRegistry ? (
                <Typography component="span" variant="body2" color="text.secondary">
                  {' · en el padrón'}
                </Typography>
              ) : null}
            </TableCell>
            <TableCell align="right">{nominee.points}</TableCell>
          </TableRow>
        ))}
      </CompactTable>
    </Paper>
  );
}
