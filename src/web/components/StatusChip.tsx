import { Chip, type ChipProps } from '@mui/material';

/** A row's state as a small outlined chip: the state's label, in the state's colour. */
export function StatusChip<Status extends string>({
  status,
  labels,
  colors,
}: {
  status: Status;
  labels: Record<Status, string>;
  colors: Record<Status, ChipProps['color']>;
}) {
  return <Chip size="small" variant="outlined" color={colors[status]} label={labels[status]} />;
}
