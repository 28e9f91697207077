import { Typography } from '@mui/material';

// Placeholder until its issue builds the screen.
export default function ExhibitorsTab() {
  return <Typography component="h1">ExhibitorsTab</Typography>;
}
