import { Box, TextField } from '@mui/material';
import { useState, type ReactNode } from 'react';

/**
 * A list's search form (role "search"): the "Buscar" field, searched on Enter with the trimmed
 * text, and the list's other filters before or after it.
 */
export function SearchForm({
  onSearch,
  maxLength,
  width,
  before,
  after,
}: {
  onSearch(text: string): void;
  maxLength: number;
  /** The field's width from a tablet up (full width on a phone). */
  width: number;
  before?: ReactNode;
  after?: ReactNode;
}) {
  const [draft, setDraft] = useState('');
  return (
    <Box
      component="form"
      role="search"
      onSubmit={(event) => {
        event.preventDefault();
        onSearch(draft.trim());
      }}
      sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap' }}
    >
      {before}
      <TextField
        label="Buscar"
        type="search"
        size="small"
        value={draft}
        onChange={(event) => setDraft(event.target.value)}
        sx={{ width: { xs: '100%', sm: width } }}
        slotProps={{ htmlInput: { maxLength, enterKeyHint: 'search' } }}
      />
      {after}
    </Box>
  );
}
