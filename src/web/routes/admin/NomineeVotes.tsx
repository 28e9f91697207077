import { Stack, Typography } from '@mui/material';
import { useState } from 'react';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { exportNomineeVotes } from '../../../shared/api/results.ts';
import type { EventCategoryView } from '../../../shared/schemas/categories.ts';
import { MSG, voteOfText } from '../../../shared/messages.ts';
import type { NomineeVote } from '../../../shared/schemas/results.ts';
import { CellButton } from '../../components/CellButton.tsx';
import { DataTable, type Column } from '../../components/DataTable.tsx';
import { Loading } from '../../components/RequireRole.tsx';
import { useEvent, useEventCategory, useEventWritable } from '../../features/events/queries.ts';
import { DEFAULT_NOMINEE_FIELDS } from '../../../shared/nominee-fields.ts';
import { NomineeDialog } from '../../features/nominations/NomineeDialog.tsx';
import { BackButton, ExportAction, TitleRow } from '../../features/results/ResultsHeader.tsx';
import { PhoneOnly } from '../../components/PhoneOnly.tsx';
import {
  downloadFile,
  formValues,
  isStaleList,
  useNomineeVotes,
  useVoteEdit,
} from '../../features/results/queries.ts';
import { useToast } from '../../components/Toasts.tsx';
import { ApiError, errorMessage } from '../../lib/api.ts';

/** Votes for one fiscal id; the URL carries event, category and fiscal id, so a reload works. */
export default function NomineeVotes() {
  const { eventId = '' } = useParams();
  const [searchParams] = useSearchParams();
  const fiscalId = searchParams.get('fiscalId') ?? '';
  const { pending, category } = useEventCategory(eventId, searchParams.get('category') ?? '');
  if (pending) return <Loading />;
  if (!category || !/^\d{1,20}$/.test(fiscalId)) {
    return (
      <Typography variant="h1" sx={{ my: 2 }}>
        {MSG.pageNotFound}
      </Typography>
    );
  }
  return <Votes eventId={eventId} shown={category} fiscalId={fiscalId} />;
}

function Votes({
  eventId,
  shown,
  fiscalId,
}: {
  eventId: string;
  shown: EventCategoryView;
  fiscalId: string;
}) {
  const category = shown.address;
  const navigate = useNavigate();
  const toast = useToast();
  const query = useNomineeVotes(eventId, category, fiscalId);
  const saveVote = useVoteEdit(eventId);
  // An archived event's votes are shown, not corrected.
  const readOnly = !useEventWritable(eventId);
  // The fields the event asks for: the correction shows and requires those.
  const event = useEvent(eventId).data;
  const nomineeFields = event?.nomineeFields ?? DEFAULT_NOMINEE_FIELDS;
  const [editing, setEditing] = useState<NomineeVote | null>(null);

  const columns: Column<NomineeVote>[] = [
    {
      header: 'Expositor',
      minWidth: 120,
      render: (vote) => (
        <>
          {vote.exhibitorName}
          <PhoneOnly>{vote.exhibitorCompany}</PhoneOnly>
        </>
      ),
    },
    { header: 'Empresa', hideOnPhone: true, render: (vote) => vote.exhibitorCompany },
    {
      header: 'Puesto',
      width: 72,
      align: 'right',
      keepWords: true,
      render: (vote) => `${vote.order}°`,
    },
    {
      header: 'Reseller',
      render: (vote) =>
        readOnly ? (
          vote.name
        ) : (
          <CellButton onClick={() => setEditing(vote)}>{vote.name}</CellButton>
        ),
    },
    {
      header: 'Nombre',
      render: (vote) => (
        <>
          {vote.contactName}
          <PhoneOnly>{vote.email}</PhoneOnly>
        </>
      ),
    },
    { header: 'Email', hideOnPhone: true, render: (vote) => vote.email },
    { header: 'Teléfono', render: (vote) => vote.phone },
  ];

  const missingEvent = query.error instanceof ApiError && query.error.status === 404;
  return (
    <Stack spacing={1.5}>
      <BackButton onClick={() => void navigate(`/admin/event/${eventId}/${category}`)} />
      <TitleRow
        title={
          <>
            <Typography variant="h1">Votos para el id fiscal: {fiscalId}</Typography>
            <Typography color="text.secondary">Nominación Reseller {shown.name}</Typography>
          </>
        }
        actions={
          <ExportAction
            onClick={() =>
              downloadFile(exportNomineeVotes, { params: { eventId, category, fiscalId } }).catch(
                (error: unknown) => toast(errorMessage(error), { severity: 'error' }),
              )
            }
          />
        }
      />
      {query.isPending ? (
        <Loading />
      ) : query.error ? (
        <Typography role="alert" color={missingEvent ? 'text.primary' : 'error'}>
          {errorMessage(query.error)}
        </Typography>
      ) : (
        <DataTable
          label={`Votos para el id fiscal: ${fiscalId}`}
          columns={columns}
          rows={query.data.votes}
          rowKey={(vote) => vote.exhibitorId}
          emptyText={MSG.noVotesForNominee}
        />
      )}
      {editing ? (
        <NomineeDialog
          title="Editar voto"
          correction
          registrySearch
          registryOnly={event?.nominableResellers === 'registry'}
          fields={nomineeFields}
          description={voteOfText(editing.exhibitorName, editing.order)}
          initial={formValues(editing)}
          onClose={() => setEditing(null)}
          onSave={async (values) => {
            try {
              await saveVote(
                {
                  exhibitorId: editing.exhibitorId,
                  category,
                  order: editing.order,
                  listVersion: editing.listVersion,
                },
                values,
              );
            } catch (error) {
              if (!isStaleList(error)) throw error;
              // The place may now hold another nominee: the refreshed votes are shown instead.
              toast(errorMessage(error), { severity: 'error', durationMs: 8000 });
            }
            setEditing(null);
          }}
        />
      ) : null}
    </Stack>
  );
}
