import { Typography } from '@mui/material';

// Placeholder until its issue builds the screen.
export default function NominationScreen() {
  return <Typography component="h1">NominationScreen</Typography>;
}
