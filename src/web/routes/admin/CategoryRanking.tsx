import { Link as MuiLink, Stack, Typography } from '@mui/material';
import { Link, useParams } from 'react-router';
import type { Category } from '../../../shared/constants.ts';
import { MSG } from '../../../shared/messages.ts';
import type { RankingRow } from '../../../shared/schemas/results.ts';
import { DataTable, type Column } from '../../components/DataTable.tsx';
import { Loading } from '../../components/RequireRole.tsx';
import {
  ExportAction,
  PhoneOnly,
  RefreshAction,
  TitleRow,
} from '../../features/results/ResultsHeader.tsx';
import {
  downloadFile,
  isCategory,
  nomineePagePath,
  rankingUrl,
  useRanking,
} from '../../features/results/queries.ts';
import { errorMessage } from '../../lib/api.ts';

/** A category tab of the event page (the layout above it has the page's h1). */
export default function CategoryRanking() {
  const { eventId = '', category } = useParams();
  if (!isCategory(category)) return <Typography sx={{ my: 2 }}>{MSG.pageNotFound}</Typography>;
  return <Ranking key={category} eventId={eventId} category={category} />;
}

function Ranking({ eventId, category }: { eventId: string; category: Category }) {
  const query = useRanking(eventId, category);
  const columns: Column<RankingRow>[] = [
    { header: 'Puesto', width: 88, render: (row) => `${row.position}°` },
    {
      header: 'Nombre',
      render: (row) => (
        <>
          <MuiLink component={Link} to={nomineePagePath(eventId, category, row.fiscalId)}>
            {row.name}
          </MuiLink>
          <PhoneOnly>{row.email}</PhoneOnly>
        </>
      ),
    },
    { header: 'Email', hideOnPhone: true, render: (row) => row.email },
    { header: 'Votos', width: 72, align: 'right', render: (row) => row.points },
  ];

  return (
    <Stack spacing={1.5} sx={{ mt: 2 }}>
      <TitleRow
        title={
          <Typography variant="h2" component="h2">
            Votos
          </Typography>
        }
        actions={
          <>
            <RefreshAction disabled={query.isFetching} onClick={() => void query.refetch()} />
            <ExportAction onClick={() => downloadFile(`${rankingUrl(eventId, category)}/export`)} />
          </>
        }
      />
      {query.isPending ? (
        <Loading />
      ) : query.error ? (
        <Typography role="alert" color="error">
          {errorMessage(query.error)}
        </Typography>
      ) : (
        <>
          <DataTable
            label="Votos"
            columns={columns}
            rows={query.data.rows}
            rowKey={(row) => row.fiscalId}
            emptyText={MSG.noVotes}
          />
          <Typography variant="body2" color="text.secondary">
            {MSG.rankingTieRule}
          </Typography>
        </>
      )}
    </Stack>
  );
}
