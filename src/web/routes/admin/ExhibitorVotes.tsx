import { Typography } from '@mui/material';

// Placeholder until its issue builds the screen.
export default function ExhibitorVotes() {
  return <Typography component="h1">ExhibitorVotes</Typography>;
}
