import { Typography } from '@mui/material';

// Placeholder until its issue builds the screen.
export default function SignInAdmin() {
  return <Typography component="h1">SignInAdmin</Typography>;
}
