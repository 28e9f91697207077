import { Box, Typography, useTheme } from '@mui/material';
import { visuallyHidden } from '@mui/utils';
import { BarChart } from '@mui/x-charts/BarChart';
import { useId } from 'react';
import type { RankingRow } from '../../../shared/schemas/results.ts';

/** Longer names are cut on the axis; the text alternative has them whole. */
const AXIS_NAME_LENGTH = 22;

const axisName = (name: string) =>
  name.length > AXIS_NAME_LENGTH ? `${name.slice(0, AXIS_NAME_LENGTH - 1)}…` : name;

export const chartDescription = (rows: readonly RankingRow[]) =>
  rows.map((row) => `${row.position}° ${row.name}: ${row.points} puntos`).join('. ');

/**
 * The first ten of a category's ranking as horizontal bars of points, each labelled with its
 * points. The drawing is inert (hidden from assistive technology and the keyboard); the figure's
 * caption and description say the same in words.
 */
export default function RankingChart({
  rows,
  plotHeight,
}: {
  /** The bars to draw, best first (the section passes the top ten). */
  rows: readonly RankingRow[];
  /** The drawing's height, which the section also keeps free while this code loads. */
  plotHeight: number;
}) {
  const theme = useTheme();
  const captionId = useId();
  const descriptionId = useId();
  if (rows.length === 0) return null;
  const most = Math.max(...rows.map((row) => row.points));
  return (
    <Box
      component="figure"
      aria-labelledby={captionId}
      aria-describedby={descriptionId}
      sx={{ m: 0 }}
    >
      <Typography id={captionId} component="figcaption" variant="subtitle1">
        Los {rows.length} primeros por puntos
      </Typography>
      {/* Inert: neither focusable nor read out; the points are written on the bars. */}
      <Box inert>
        <BarChart
          layout="horizontal"
          height={plotHeight}
          hideLegend
          skipAnimation
          margin={{ left: 0, right: 16, top: 8, bottom: 0 }}
          yAxis={[
            {
              scaleType: 'band',
              data: rows.map((row) => `${row.position}° ${axisName(row.name)}`),
              width: 170,
            },
          ]}
          // Room after the longest bar for its label, which is drawn outside the bar.
          xAxis={[
            { label: 'Puntos', tickMinStep: 1, max: most + Math.max(1, Math.ceil(most / 10)) },
          ]}
          series={[
            {
              data: rows.map((row) => row.points),
              label: 'Puntos',
              barLabel: 'value',
              barLabelPlacement: 'outside',
              color: theme.palette.primary.main,
            },
          ]}
        />
      </Box>
      <Box id={descriptionId} sx={visuallyHidden}>
        {chartDescription(rows)}
      </Box>
    </Box>
  );
}
