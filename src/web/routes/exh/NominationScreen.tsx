import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { useLoaderData, useParams, useSearchParams } from 'react-router';
import type { EventCategoryView } from '../../../shared/schemas/categories.ts';
import { formatDisplayDate, formatDisplayInstant } from '../../../shared/dates.ts';
import { deadlineClosingText, zoneLabel } from '../../../shared/deadline-zone.ts';
import { annulledListText, MSG } from '../../../shared/messages.ts';
import type { Nominee, NomineeView } from '../../../shared/schemas/nominee.ts';
import type {
  ExhEventResponse,
  MoveDirection,
  NominationList,
} from '../../../shared/schemas/nominations.ts';
import { PlainConfirmDialog } from '../../components/plain/Dialog.tsx';
import { PlainButton } from '../../components/plain/Fields.tsx';
import { Icon } from '../../components/plain/Icon.tsx';
import { PlainNotice } from '../../components/plain/Notice.tsx';
import { PlainTabs } from '../../components/plain/Tabs.tsx';
import { Loading } from '../../components/RequireRole.tsx';
import { useEventPreview, useExhEvent, type ListChange } from '../../features/nominations/data.ts';
import {
  NomineeList,
  rowControlId,
  type RowAction,
} from '../../features/nominations/NomineeList.tsx';
import { ApiError, errorMessage } from '../../lib/http.ts';
import type { nominationLoader } from './loaders.ts';

// The nominee form and its schema (Zod) load right after the list shows, not before: the list is
// what an exhibitor opens the screen for.
const loadNomineeDialog = () => import('../../features/nominations/PlainNomineeDialog.tsx');
const NomineeDialog = lazy(async () => ({
  default: (await loadNomineeDialog()).PlainNomineeDialog,
}));

const tabLabel = (category: EventCategoryView) => `Nominación Reseller de ${category.name}`;

/** The list of one category: empty until its first save. */
const listOf = (event: ExhEventResponse, address: string): NominationList =>
  event.lists[address] ?? { category: address, version: 0, savedAt: null, nominees: [] };

/** Each tab says how full its list is ("… 3/5"), so what is left to do shows without opening it. */
const tabsWithCounts = (event: ExhEventResponse) =>
  event.categories.map((category) => ({
    value: category.address,
    label: `${tabLabel(category)} ${listOf(event, category.address).nominees.length}/${category.nomineeLimit}`,
  }));

/**
 * An instant of the answer as the server wrote it in the event's zone (`instantTexts`), so the first
 * draw never starts the browser's date formatting (Intl, tens of milliseconds on a phone); an
 * instant a later save answered is formatted here.
 */
const instantText = (event: ExhEventResponse, instant: string): string =>
  event.instantTexts[instant] ?? formatDisplayInstant(instant, event.timeZone);

/**
 * The points rule above the lists, for the specification's shape (five, "Por puesto") only: any
 * other shape is told per category by its own description.
 */
const showsPointsRule = (categories: EventCategoryView[]) =>
  categories.every(({ nomineeLimit, scoring }) => nomineeLimit === 5 && scoring === 'place');

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
  // The request the route started while this code loaded (./loaders.ts).
  return (
    <Nominations
      query={useExhEvent(eventId, useLoaderData<typeof nominationLoader>().event)}
      registryEventId={eventId}
    />
  );
}

/** "Vista previa": the same screen for an administrator, whose saves are refused at once. */
export function NominationPreview() {
  const { eventId = '' } = useParams();
  return <Nominations query={useEventPreview(eventId)} />;
}

/** `registryEventId`: the exhibitor's own event, searched by "Buscar en el padrón" (not in "Vista previa"). */
function Nominations({
  query,
  registryEventId,
}: {
  query: ReturnType<typeof useExhEvent>;
  registryEventId?: string;
}) {
  const [searchParams, setSearchParams] = useSearchParams();
  const requested = searchParams.get('categoria');
  const categories = query.data?.categories ?? [];
  // The first tab unless the address asks for another of the event's categories.
  const current = categories.find(({ address }) => address === requested) ?? categories[0];
  const category = current?.address ?? '';
  const write = query.write;
  const [dialog, setDialog] = useState<OpenDialog | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [removing, setRemoving] = useState(false);
  const saving = useRef(false);
  const [focusAfterSave, setFocusAfterSave] = useState<string | null>(null);

  const votingOpen = query.data?.votingOpen ?? false;
  const list = query.data && current ? listOf(query.data, category) : undefined;

  // A moved row is re-inserted in the DOM, which drops keyboard focus: give it back to the moved
  // row's control so "Subir"/"Bajar" can be pressed again. Not while a dialog is open: the
  // focus stays in it until it closes.
  useEffect(() => {
    if (!focusAfterSave || dialog) return;
    const target = document.getElementById(focusAfterSave);
    if (target) {
      target.focus();
      setFocusAfterSave(null);
    }
  }, [focusAfterSave, list, dialog]);

  useEffect(() => {
    if (votingOpen) void loadNomineeDialog();
  }, [votingOpen]);

  if (query.isPending) return <Loading />;
  if (query.error || !query.data || !list || !current) {
    const missing = query.error instanceof ApiError && query.error.status === 404;
    return <h1 className="exh-h1 exh-gap">{missing ? MSG.eventNotFound : MSG.genericError}</h1>;
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

  const full = list.nominees.length >= current.nomineeLimit;
  // A list the organisation annulled is shown as kept, with the reason, and cannot be changed.
  const annulledReason = list.annulledReason;
  const editable = votingOpen && annulledReason === undefined;
  const everyListFull = event.categories.every(
    (each) => listOf(event, each.address).nominees.length >= each.nomineeLimit,
  );
  // The last save of any list (ISO instants compare as text): each save's answer moves it.
  const savedAt = event.categories
    .map(({ address }) => listOf(event, address).savedAt)
    .filter((at) => at !== null)
    .sort()
    .at(-1);

  return (
    <div className="exh-stack">
      <div>
        <h1 className="exh-h1">{event.name}</h1>
        {/* Once voting has ended only that is said: the deadline texts would be about the past. */}
        {votingOpen ? (
          <>
            <p className="exh-deadline">
              Tienes hasta {formatDisplayDate(event.voteDeadline)} para realizar cambios
            </p>
            <p className="exh-secondary exh-small">
              {deadlineClosingText(event.voteDeadline, event.timeZone, event.closeTime)}
            </p>
            {savedAt ? (
              <p className="exh-secondary exh-small exh-saved" role="status">
                Guardado {instantText(event, savedAt)} ({zoneLabel(event.timeZone)})
              </p>
            ) : null}
          </>
        ) : null}
      </div>
      {votingOpen ? null : <PlainNotice severity="info" message={MSG.votingClosed} />}
      {votingOpen && everyListFull ? (
        <div className="plain-alert plain-alert-success" role="status">
          <div className="plain-alert-message">
            <strong>{MSG.exhListsComplete}</strong> {MSG.exhReceiptComing}
          </div>
        </div>
      ) : null}
      {votingOpen && showsPointsRule(event.categories) ? (
        <p className="exh-secondary exh-small">{MSG.exhPointsRule}</p>
      ) : null}
      {event.organizationChange ? (
        // The latest change an administrator made to these lists (issue 28), in the event's zone.
        <div className="plain-alert plain-alert-info exh-organization-change">
          <span className="plain-alert-icon">
            <Icon name="info" size={22} />
          </span>
          <div className="plain-alert-message">
            Modificado por la organización el{' '}
            {/* The date and time stay on one line at phone width. */}
            <span className="exh-nowrap">
              {instantText(event, event.organizationChange.at)}
            </span>: {event.organizationChange.reason}
          </div>
        </div>
      ) : null}
      <PlainNotice severity="warning" message={notice} onClose={() => setNotice(null)} />
      <PlainTabs
        label="Categorías"
        tabs={tabsWithCounts(event)}
        value={category}
        onChange={(value) => {
          setNotice(null);
          // The first category's tab is the bare address, as it always was.
          setSearchParams(value === categories[0]?.address ? {} : { categoria: value }, {
            replace: true,
          });
        }}
      />
      <div
        className="exh-stack"
        role="tabpanel"
        id={`panel-${category}`}
        aria-labelledby={`tab-${category}`}
      >
        {current.description ? (
          // Who may be nominated in this category, above its list.
          <p className="exh-secondary">{current.description}</p>
        ) : null}
        {annulledReason !== undefined ? (
          <PlainNotice severity="warning" message={annulledListText(annulledReason)} />
        ) : null}
        {editable ? (
          full ? (
            <PlainNotice severity="info" message={MSG.nominationLimit} />
          ) : (
            <div>
              <PlainButton
                id={`${listId}-nominar`}
                type="button"
                size="medium"
                startIcon={<Icon name="add" size={20} />}
                onClick={() => setDialog({ kind: 'add' })}
              >
                Nominar
              </PlainButton>
            </div>
          )
        ) : null}
        <NomineeList
          listId={listId}
          label={tabLabel(current)}
          nominees={list.nominees}
          editable={editable}
          fields={event.nomineeFields}
          onMove={move}
          onEdit={(nominee) => setDialog({ kind: 'edit', nominee })}
          onRemove={(nominee) => setDialog({ kind: 'remove', nominee })}
        />
      </div>

      <Suspense fallback={null}>
        {votingOpen && dialog?.kind === 'add' ? (
          <NomineeDialog
            title="Nominar a un reseller"
            fields={event.nomineeFields}
            registryOnly={event.nominableResellers === 'registry'}
            {...(registryEventId ? { registryOf: { eventId: registryEventId, category } } : {})}
            onSave={(values) => saveFromDialog({ kind: 'add', values })}
            onClose={() => setDialog(null)}
          />
        ) : null}
        {votingOpen && dialog?.kind === 'edit' ? (
          <NomineeDialog
            title="Editar reseller"
            initial={formValues(dialog.nominee)}
            fiscalIdReadOnly
            fields={event.nomineeFields}
            registryOnly={event.nominableResellers === 'registry'}
            onSave={(values) =>
              saveFromDialog({ kind: 'edit', fiscalId: dialog.nominee.fiscalId, values })
            }
            onClose={() => setDialog(null)}
          />
        ) : null}
      </Suspense>
      {votingOpen && dialog?.kind === 'remove' ? (
        <PlainConfirmDialog
          title={MSG.confirmRemoveNominee}
          text={`${dialog.nominee.name}. ${MSG.confirmRemoveNomineeText}`}
          confirmLabel="Eliminar"
          busy={removing}
          onConfirm={() => void confirmRemove(dialog.nominee)}
          onClose={() => setDialog(null)}
        />
      ) : null}
    </div>
  );
}
