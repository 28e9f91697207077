import { Dialog, DialogTitle } from '@mui/material';

// Placeholder until the administration issue builds it.
export default function LogoDialog({ open, onClose }: { open: boolean; onClose(): void }) {
  return (
    <Dialog open={open} onClose={onClose}>
      <DialogTitle>Actualizar logo</DialogTitle>
    </Dialog>
  );
}
