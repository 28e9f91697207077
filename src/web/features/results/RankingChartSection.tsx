import { lazy, Suspense } from 'react';
import type { Category } from '../../../shared/constants.ts';
import { useRanking } from './queries.ts';

// The charts library is heavy: its own chunk, loaded only when a category tab shows the chart.
const RankingChart = lazy(() => import('./RankingChart.tsx'));

/** The chart above a category's table: the top ten of the ranking's first page. */
export function RankingChartSection({
  eventId,
  category,
}: {
  eventId: string;
  category: Category;
}) {
  const { data } = useRanking(eventId, category, 1);
  if (!data || data.rows.length === 0) return null;
  return (
    <Suspense fallback={null}>
      <RankingChart rows={data.rows} />
    </Suspense>
  );
}
