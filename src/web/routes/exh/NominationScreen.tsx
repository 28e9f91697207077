import AddIcon from '@mui/icons-material/Add';
import { Alert, Box, Button, Stack, Tab, Tabs, Typography } from '@mui/material';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { useParams, useSearchParams } from 'react-router';
import {
  CATEGORIES,
  CATEGORY_LABELS,
  MAX_NOMINEES_PER_CATEGORY,
  type Category,
} from '../../../shared/constants.ts';
import { formatDisplayDate, formatDisplayInstant } from '../../../shared/dates.ts';
import { deadlineClosingText } from '../../../shared/deadline-zone.ts';
import { MSG } from '../../../shared/messages.ts';
import type { Nominee, NomineeView } from '../../../shared/schemas/nominee.ts';
import type { MoveDirection } from '../../../shared/schemas/nominations.ts';
import { Loading } from '../../components/RequireRole.tsx';
import {
  NomineeList,
  rowControlId,
  type RowAction,
} from '../../features/nominations/NomineeList.tsx';
import { useExhEvent, useListWriter, type ListChange } from '../../features/nominations/queries.ts';
import { ApiError, errorMessage } from '../../lib/api.ts';

// The dialogs (React Hook Form, MUI's dialog and fields) load right after the list shows, not
// before: the list is what an exhibitor opens the screen for.
const loadNomineeDialog = () => import('../../features/nominations/NomineeDialog.tsx');
const loadConfirmDialog = () => import('../../components/ConfirmDialog.tsx');
const NomineeDialog = lazy(async () => ({ default: (await loadNomineeDialog()).NomineeDialog }));
const ConfirmDialog = lazy(async () => ({ default: (await loadConfirmDialog()).ConfirmDialog }));

const tabLabel = (category: Category) => `Nominación Reseller de ${CATEGORY_LABELS[category]}`;

type OpenDialog =
  | { kind: 'add' }
  | { kind: 'edit'; nominee: NomineeView }
  | { kind: 'remove'; nominee: NomineeView };

const formValues = ({ order: _order, ...values }: NomineeView): Nominee => values;

/** The message to show after a refused or failed row save (the dialogs show their own). */
function refusalNotice(error: unknown): string | null {
  // After the deadline the reloaded screen itself says that voting has ended.
  if (error instanceof ApiError && error.code === 'voting_closed') return null;
  return errorMessage(error);
}

export default function NominationScreen() {
  const { eventId = '' } = useParams();
  const [searchParams, setSearchParams] = useSearchParams();
  const category: Category = searchParams.get('categoria') === 'value' ? 'value' : 'consumption';
  const query = useExhEvent(eventId);
  const write = useListWriter(eventId);
  const [dialog, setDialog] = useState<OpenDialog | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [removing, setRemoving] = useState(false);
  const saving = useRef(false);
  const [focusAfterSave, setFocusAfterSave] = useState<string | null>(null);

  const votingOpen = query.data?.votingOpen ?? false;
  const list = query.data?.lists[category];

  // A moved row is re-inserted in the DOM, which drops keyboard focus: give it back to the moved
  // row's control so "Subir"/"Bajar" can be pressed again.
  useEffect(() => {
    if (!focusAfterSave) return;
    const target = document.getElementById(focusAfterSave);
    if (target) {
      target.focus();
      setFocusAfterSave(null);
    }
  }, [focusAfterSave, list]);

  useEffect(() => {
    if (votingOpen) void loadNomineeDialog();
  }, [votingOpen]);

  if (query.isPending) return <Loading />;
  if (query.error || !query.data || !list) {
    const missing = query.error instanceof ApiError && query.error.status === 404;
    return (
      <Typography variant="h1" sx={{ my: 2 }}>
        {missing ? MSG.eventNotFound : MSG.genericError}
      </Typography>
    );
  }
  const event = query.data;
  const listId = `lista-${category}`;

  /** Row controls save at once; one save at a time, so each is based on the list it saw. */
  async function save(change: ListChange, focusAfter?: () => string | null) {
    if (saving.current) return;
    saving.current = true;
    try {
      const stored = await write(category, change);
      setNotice(null);
      if (focusAfter) setFocusAfterSave(focusAfter());
      return stored;
    } catch (error) {
      setNotice(refusalNotice(error));
    } finally {
      saving.current = false;
    }
  }

  function move(nominee: NomineeView, direction: MoveDirection) {
    const count = list?.nominees.length ?? 0;
    void save({ kind: 'move', fiscalId: nominee.fiscalId, direction }, () => {
      const newOrder = nominee.order + (direction === 'up' ? -1 : 1);
      // At an end of the list the pressed control is disabled: focus the other one.
      const action: RowAction =
        direction === 'up' ? (newOrder === 1 ? 'down' : 'up') : newOrder === count ? 'up' : 'down';
      return rowControlId(listId, nominee.fiscalId, action);
    });
  }

  async function confirmRemove(nominee: NomineeView) {
    setRemoving(true);
    // The removed row's control is gone: keyboard focus continues at "Nominar".
    await save({ kind: 'remove', fiscalId: nominee.fiscalId }, () => `${listId}-nominar`);
    setRemoving(false);
    setDialog(null);
  }

  async function saveFromDialog(change: ListChange) {
    // Errors propagate to the dialog, which shows the server's message and stays open.
    await write(category, change);
    setNotice(null);
    setDialog(null);
  }

  const full = list.nominees.length >= MAX_NOMINEES_PER_CATEGORY;
  // The last save of either list (ISO instants compare as text): each save's answer moves it.
  const savedAt = [event.lists.consumption.savedAt, event.lists.value.savedAt]
    .filter((at) => at !== null)
    .sort()
    .at(-1);

  return (
    <Stack spacing={2}>
      <Box>
        <Typography variant="h1" sx={{ overflowWrap: 'anywhere' }}>
          {event.name}
        </Typography>
        <Typography sx={{ mt: 1 }}>
          Tienes hasta {formatDisplayDate(event.voteDeadline)} para realizar cambios
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {deadlineClosingText(event.voteDeadline, event.timeZone)}
        </Typography>
        {savedAt ? (
          <Typography variant="body2" color="text.secondary" role="status" sx={{ mt: 0.5 }}>
            Guardado {formatDisplayInstant(savedAt, event.timeZone)}
          </Typography>
        ) : null}
      </Box>
      {votingOpen ? null : <Alert severity="info">{MSG.votingClosed}</Alert>}
      {notice ? (
        <Alert severity="warning" onClose={() => setNotice(null)}>
          {notice}
        </Alert>
      ) : null}
      <Tabs
        value={category}
        onChange={(_e, value: Category) => {
          setNotice(null);
          setSearchParams(value === 'value' ? { categoria: 'value' } : {}, { replace: true });
        }}
        variant="fullWidth"
        aria-label="Categorías"
      >
        {CATEGORIES.map((c) => (
          <Tab
            key={c}
            value={c}
            label={tabLabel(c)}
            id={`tab-${c}`}
            aria-controls={`panel-${c}`}
            sx={{ px: 1 }}
          />
        ))}
      </Tabs>
      <Stack
        spacing={2}
        role="tabpanel"
        id={`panel-${category}`}
        aria-labelledby={`tab-${category}`}
      >
        {votingOpen ? (
          full ? (
            <Alert severity="info">{MSG.nominationLimit}</Alert>
          ) : (
            <Box>
              <Button
                id={`${listId}-nominar`}
                variant="contained"
                startIcon={<AddIcon />}
                onClick={() => setDialog({ kind: 'add' })}
              >
                Nominar
              </Button>
            </Box>
          )
        ) : null}
        <NomineeList
          listId={listId}
          label={tabLabel(category)}
          nominees={list.nominees}
          editable={votingOpen}
          onMove={move}
          onEdit={(nominee) => setDialog({ kind: 'edit', nominee })}
          onRemove={(nominee) => setDialog({ kind: 'remove', nominee })}
        />
      </Stack>

      <Suspense fallback={null}>
        {votingOpen && dialog?.kind === 'add' ? (
          <NomineeDialog
            title="Nominar a un reseller"
            onSave={(values) => saveFromDialog({ kind: 'add', values })}
            onClose={() => setDialog(null)}
          />
        ) : null}
        {votingOpen && dialog?.kind === 'edit' ? (
          <NomineeDialog
            title="Editar reseller"
            initial={formValues(dialog.nominee)}
            fiscalIdReadOnly
            onSave={(values) =>
              saveFromDialog({ kind: 'edit', fiscalId: dialog.nominee.fiscalId, values })
            }
            onClose={() => setDialog(null)}
          />
        ) : null}
        <ConfirmDialog
          open={votingOpen && dialog?.kind === 'remove'}
          title={MSG.confirmRemoveNominee}
          text={
            dialog?.kind === 'remove'
              ? `${dialog.nominee.name}. ${MSG.confirmRemoveNomineeText}`
              : ''
          }
          confirmLabel="Eliminar"
          busy={removing}
          onConfirm={() => {
            if (dialog?.kind === 'remove') void confirmRemove(dialog.nominee);
          }}
          onClose={() => setDialog(null)}
        />
      </Suspense>
    </Stack>
  );
}
