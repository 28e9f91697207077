import { Box, Button, Typography } from '@mui/material';
import { Link as RouterLink } from 'react-router';
import { MSG } from '../../shared/messages.ts';

export default function NotFound() {
  return (
    <Box component="main" sx={{ minHeight: '100vh', display: 'grid', placeItems: 'center', p: 2 }}>
      <Box sx={{ textAlign: 'center' }}>
        <Typography variant="h1" component="h1" gutterBottom>
          {MSG.pageNotFound}
        </Typography>
        <Button component={RouterLink} to="/" variant="outlined">
          Volver al inicio
        </Button>
      </Box>
    </Box>
  );
}
