import { createTheme } from '@mui/material/styles';
import { esES } from '@mui/material/locale';

export const theme = createTheme(
  {
    palette: {
      primary: { main: '#1565c0' },
      secondary: { main: '#ef6c00' },
      background: { default: '#f5f7fa' },
    },
    shape: { borderRadius: 8 },
    typography: {
      // The system's own font, as the shell's stylesheet: nothing to download, nothing to swap.
      fontFamily:
        "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif",
      h1: { fontSize: '1.75rem', fontWeight: 700 },
      h2: { fontSize: '1.35rem', fontWeight: 600 },
    },
    components: {
      MuiButton: { styleOverrides: { root: { textTransform: 'none' } } },
      MuiTab: { styleOverrides: { root: { textTransform: 'none' } } },
    },
  },
  esES,
);
