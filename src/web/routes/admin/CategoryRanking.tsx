import { Typography } from '@mui/material';

// Placeholder until its issue builds the screen.
export default function CategoryRanking() {
  return <Typography component="h1">CategoryRanking</Typography>;
}
