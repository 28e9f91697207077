import { Typography } from '@mui/material';

// Placeholder until its issue builds the screen.
export default function ResetPassword() {
  return <Typography component="h1">ResetPassword</Typography>;
}
