import { Box } from '@mui/material';
import { lazy, Suspense } from 'react';
import type { CategoryAddress } from '../../../shared/constants.ts';
import { useRanking } from './queries.ts';

// The charts library is heavy: its own chunk, loaded only when a category tab shows the chart.
const RankingChart = lazy(() => import('./RankingChart.tsx'));

/** Bars in the chart: the top ten. */
const CHART_SIZE = 10;
/** The figure caption's line (MUI's subtitle1: 16 px × 1.75). */
const CAPTION_HEIGHT = 28;

/** The chart above a category's table: the top ten of the ranking's first page. */
export function RankingChartSection({
  eventId,
  category,
}: {
  eventId: string;
  category: CategoryAddress;
}) {
  const { data } = useRanking(eventId, category, 1);
  if (!data || data.rows.length === 0) return null;
  const bars = Math.min(data.rows.length, CHART_SIZE);
  const plotHeight = 48 + bars * 32;
  return (
    // While the chart's code loads, its place is kept, so the table below does not jump.
    <Suspense fallback={<Box sx={{ height: CAPTION_HEIGHT + plotHeight }} />}>
      <RankingChart rows={data.rows.slice(0, bars)} plotHeight={plotHeight} />
    </Suspense>
  );
}
