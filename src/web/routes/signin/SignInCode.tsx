import { Typography } from '@mui/material';

// Placeholder until its issue builds the screen.
export default function SignInCode() {
  return <Typography component="h1">SignInCode</Typography>;
}
