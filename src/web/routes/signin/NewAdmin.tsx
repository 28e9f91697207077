import { Typography } from '@mui/material';

// Placeholder until its issue builds the screen.
export default function NewAdmin() {
  return <Typography component="h1">NewAdmin</Typography>;
}
