import { Typography } from '@mui/material';

// Placeholder until its issue builds the screen.
export default function MyEvents() {
  return <Typography component="h1">MyEvents</Typography>;
}
