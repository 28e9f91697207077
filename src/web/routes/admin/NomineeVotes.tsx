import { Typography } from '@mui/material';

// Placeholder until its issue builds the screen.
export default function NomineeVotes() {
  return <Typography component="h1">NomineeVotes</Typography>;
}
