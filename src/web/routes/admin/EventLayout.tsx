import { Typography } from '@mui/material';

// Placeholder until its issue builds the screen.
export default function EventLayout() {
  return <Typography component="h1">EventLayout</Typography>;
}
