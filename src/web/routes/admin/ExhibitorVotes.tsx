import { Alert, Box, Button, Stack, Tab, Tabs, Typography } from '@mui/material';
import { useState } from 'react';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import type { EventCategoryView } from '../../../shared/schemas/categories.ts';
import { annulledText, MSG, voteOfText } from '../../../shared/messages.ts';
import type { NomineeView } from '../../../shared/schemas/nominee.ts';
import { CellButton } from '../../components/CellButton.tsx';
import { DataTable, type Column } from '../../components/DataTable.tsx';
import { Loading } from '../../components/RequireRole.tsx';
import { useEvent, useEventWritable } from '../../features/events/queries.ts';
import { DEFAULT_NOMINEE_FIELDS } from '../../../shared/nominee-fields.ts';
import { NomineeDialog } from '../../features/nominations/NomineeDialog.tsx';
import { BackButton } from '../../features/results/ResultsHeader.tsx';
import {
  formValues,
  isStaleList,
  useExhibitorVotes,
  useVoteEdit,
} from '../../features/results/queries.ts';
import { useToast } from '../../components/Toasts.tsx';
import { AnnulListDialog, RestoreListDialog } from '../../features/results/AnnulDialogs.tsx';
import { ApiError, errorMessage } from '../../lib/api.ts';

const tabLabel = (category: EventCategoryView) => `Nominación Reseller de ${category.name}`;

/** One exhibitor's lists in an event, a tab per category in the event's order; the administrator may correct any entry unless the event is archived. */
export default function ExhibitorVotes() {
  const { eventId = '', exhId = '' } = useParams();
  const navigate = useNavigate();
  const [searchParams, setSearchParams] = useSearchParams();
  const query = useExhibitorVotes(eventId, exhId);
  const saveVote = useVoteEdit(eventId);
  const readOnly = !useEventWritable(eventId);
  const event = useEvent(eventId).data;
  // The fields the event asks for: the correction shows and requires those.
  const nomineeFields = event?.nomineeFields ?? DEFAULT_NOMINEE_FIELDS;
  const categories = event?.categories ?? [];
  const requested = searchParams.get('categoria');
  const shown = categories.find(({ address }) => address === requested) ?? categories[0];
  const toast = useToast();
  // The entry and its list's version as shown when its dialog opened: the correction is based on
  // them, even if the page refreshes behind the dialog.
  const [editing, setEditing] = useState<{ nominee: NomineeView; listVersion: number } | null>(
    null,
  );
  const [annulDialog, setAnnulDialog] = useState<'annul' | 'restore' | null>(null);
  const back = <BackButton onClick={() => void navigate(`/admin/event/${eventId}/exhibitors`)} />;

  if (query.isPending || !event) return <Loading />;
  if (query.error) {
    const missing = query.error instanceof ApiError && query.error.status === 404;
    return (
      <Stack spacing={1.5}>
        {back}
        <Typography variant="h1" role={missing ? undefined : 'alert'}>
          {errorMessage(query.error)}
        </Typography>
      </Stack>
    );
  }

  const shownList = shown ? query.data.lists[shown.address] : undefined;
  if (!shown || !shownList) {
    return (
      <Stack spacing={1.5}>
        {back}
        <Typography variant="h1">{MSG.pageNotFound}</Typography>
      </Stack>
    );
  }
  const category = shown.address;
  const annulment = shownList.annulment;
  const list = { eventId, exhibitorId: exhId, category };
  const columns: Column<NomineeView>[] = [
    {
      header: 'Reseller',
      render: (nominee) =>
        // An annulled list is kept as it was: restored first, then corrected.
        readOnly || annulment ? (
          nominee.name
        ) : (
          <CellButton onClick={() => setEditing({ nominee, listVersion: shownList.version })}>
            {nominee.name}
          </CellButton>
        ),
    },
    { header: 'Contacto', render: (nominee) => nominee.contactName },
    { header: 'Email', render: (nominee) => nominee.email },
  ];

  return (
    <Stack spacing={1.5}>
      {back}
      <Typography variant="h1" sx={{ overflowWrap: 'anywhere' }}>
        Votos de {query.data.exhibitor.fullName}
      </Typography>
      <Tabs
        value={category}
        onChange={(_event, value: string) =>
          setSearchParams(value === categories[0]?.address ? {} : { categoria: value }, {
            replace: true,
          })
        }
        variant="scrollable"
        allowScrollButtonsMobile
        aria-label="Categorías"
      >
        {categories.map((c) => (
          <Tab
            key={c.address}
            value={c.address}
            label={tabLabel(c)}
            id={`tab-${c.address}`}
            aria-controls={`panel-${c.address}`}
          />
        ))}
      </Tabs>
      <Box role="tabpanel" id={`panel-${category}`} aria-labelledby={`tab-${category}`}>
        {annulment ? (
          <Alert
            severity="warning"
            sx={{ mb: 1.5, overflowWrap: 'anywhere' }}
            action={
              readOnly ? undefined : (
                <Button
                  color="inherit"
                  size="small"
                  sx={{ whiteSpace: 'nowrap' }}
                  onClick={() => setAnnulDialog('restore')}
                >
                  Restablecer
                </Button>
              )
            }
          >
            {annulledText(annulment.reason)}
          </Alert>
        ) : !readOnly && shownList.nominees.length > 0 ? (
          <Box sx={{ mb: 1.5 }}>
            <Button variant="outlined" color="error" onClick={() => setAnnulDialog('annul')}>
              Anular votos
            </Button>
          </Box>
        ) : null}
        <DataTable
          label={tabLabel(shown)}
          columns={columns}
          rows={shownList.nominees}
          rowKey={(nominee) => String(nominee.order)}
          emptyText={MSG.noVotesForNominee}
        />
      </Box>
      {annulDialog === 'annul' ? (
        <AnnulListDialog
          list={list}
          categoryName={shown.name}
          exhibitorName={query.data.exhibitor.fullName}
          onClose={() => setAnnulDialog(null)}
        />
      ) : null}
      {annulDialog === 'restore' ? (
        <RestoreListDialog
          list={list}
          categoryName={shown.name}
          exhibitorName={query.data.exhibitor.fullName}
          onClose={() => setAnnulDialog(null)}
        />
      ) : null}
      {editing ? (
        <NomineeDialog
          title="Editar nominación"
          correction
          registrySearch
          registryOnly={event?.nominableResellers === 'registry'}
          fields={nomineeFields}
          description={voteOfText(query.data.exhibitor.fullName, editing.nominee.order)}
          initial={formValues(editing.nominee)}
          onClose={() => setEditing(null)}
          onSave={async (values) => {
            const { nominee, listVersion } = editing;
            try {
              await saveVote(
                { exhibitorId: exhId, category, order: nominee.order, listVersion },
                values,
              );
            } catch (error) {
              if (!isStaleList(error)) throw error;
              // The place may now hold another nominee: the refreshed list is shown instead.
              toast(errorMessage(error), { severity: 'error', durationMs: 8000 });
            }
            setEditing(null);
          }}
        />
      ) : null}
    </Stack>
  );
}
