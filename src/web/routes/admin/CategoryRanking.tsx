import { Stack, TablePagination, Typography } from '@mui/material';
import { useEffect, useRef } from 'react';
import { useParams, useSearchParams } from 'react-router';
import { exportRanking } from '../../../shared/api/results.ts';
import type { EventCategoryView } from '../../../shared/schemas/categories.ts';
import { annulledListsText, MSG } from '../../../shared/messages.ts';
import { useEvent, useEventCategory, useEventWritable } from '../../features/events/queries.ts';
import { SealedResults } from '../../features/events/SealedResults.tsx';
import { DuplicatesAction } from '../../features/results/DuplicatesDialog.tsx';
import { RankingTable, TieBreakNotes } from '../../features/results/RankingTable.tsx';
import { ExportAction, RefreshAction, TitleRow } from '../../features/results/ResultsHeader.tsx';
import { downloadFile, useRanking } from '../../features/results/queries.ts';
import { QueryState } from '../../components/QueryState.tsx';
import { Loading } from '../../components/RequireRole.tsx';
import { PresentAction } from '../../features/results/PresentAction.tsx';
import { RankingChartSection } from '../../features/results/RankingChartSection.tsx';
import { useToast } from '../../components/Toasts.tsx';
import { errorMessage } from '../../lib/api.ts';

/** The page number lives in the address (`?pagina=N`), so a reload or a shared link keeps it. */
const PAGE_PARAM = 'pagina';

/** A category tab of the event page (the layout above it has the page's h1). */
export default function CategoryRanking() {
  const { eventId = '', category: address } = useParams();
  const event = useEvent(eventId);
  const { pending, category } = useEventCategory(eventId, address);
  if (pending || event.isPending) return <Loading />;
  if (!category) return <Typography sx={{ my: 2 }}>{MSG.pageNotFound}</Typography>;
  // A sealed event's figures are not even asked for: the server would refuse them anyway.
  if (event.data?.resultsSealed) return <SealedResults eventId={eventId} />;
  return <Ranking key={category.address} eventId={eventId} shown={category} />;
}

function Ranking({ eventId, shown }: { eventId: string; shown: EventCategoryView }) {
  const category = shown.address;
  const toast = useToast();
  const [searchParams, setSearchParams] = useSearchParams();
  const requested = Number(searchParams.get(PAGE_PARAM));
  const page = Number.isInteger(requested) && requested >= 1 ? requested : 1;
  const query = useRanking(eventId, category, page);
  // Merging fiscal ids changes votes: not on an archived event.
  const writable = useEventWritable(eventId);
  const top = useRef<HTMLDivElement>(null);
  const setPage = (next: number) =>
    setSearchParams(
      (params) => {
        if (next > 1) params.set(PAGE_PARAM, String(next));
        else params.delete(PAGE_PARAM);
        return params;
      },
      { replace: true },
    );
  // The ranking shrank under an open page (votes removed): show its last page instead.
  const lastPage = query.data ? Math.max(1, Math.ceil(query.data.total / query.data.pageSize)) : 1;
  const pastTheEnd = !query.isPlaceholderData && query.data !== undefined && page > lastPage;
  useEffect(() => {
    if (pastTheEnd) setPage(lastPage);
  });

  return (
    <Stack ref={top} spacing={1.5} sx={{ mt: 2 }}>
      <TitleRow
        title={
          <Typography variant="h2" component="h2">
            Votos
          </Typography>
        }
        actions={
          <>
            <PresentAction eventId={eventId} category={category} />
            {writable ? <DuplicatesAction eventId={eventId} category={category} /> : null}
            <RefreshAction disabled={query.isFetching} onClick={() => void query.refetch()} />
            <ExportAction
              onClick={() =>
                downloadFile(exportRanking, { params: { eventId, category } }).catch(
                  (error: unknown) => toast(errorMessage(error), { severity: 'error' }),
                )
              }
            />
          </>
        }
      />
      <RankingChartSection eventId={eventId} category={category} />
      <QueryState query={query}>
        {(data) => (
          <>
            <RankingTable
              eventId={eventId}
              category={category}
              nomineeLimit={shown.nomineeLimit}
              rows={data.rows}
            />
            {data.total > data.pageSize && (
              <TablePagination
                component="div"
                count={data.total}
                page={Math.min(page, lastPage) - 1}
                onPageChange={(_, next) => {
                  setPage(next + 1);
                  // The buttons sit under 100 rows: bring the new page's first row into view.
                  top.current?.scrollIntoView({ block: 'start' });
                }}
                rowsPerPage={data.pageSize}
                rowsPerPageOptions={[]}
                showFirstButton
                showLastButton
                sx={{ '& .MuiTablePagination-toolbar': { px: 0 } }}
              />
            )}
            <TieBreakNotes rows={data.rows} />
            {data.annulledLists > 0 ? (
              // Annulled lists are kept but counted nowhere in this ranking.
              <Typography variant="body2" color="text.secondary">
                {annulledListsText(data.annulledLists)}
              </Typography>
            ) : null}
            <Typography variant="body2" color="text.secondary">
              {MSG.rankingTieRule}
            </Typography>
          </>
        )}
      </QueryState>
    </Stack>
  );
}
