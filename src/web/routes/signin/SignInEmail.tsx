import { Typography } from '@mui/material';

// Placeholder until its issue builds the screen.
export default function SignInEmail() {
  return <Typography component="h1">SignInEmail</Typography>;
}
