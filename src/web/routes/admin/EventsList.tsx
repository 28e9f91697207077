import { Typography } from '@mui/material';

// Placeholder until its issue builds the screen.
export default function EventsList() {
  return <Typography component="h1">EventsList</Typography>;
}
