import { Typography } from '@mui/material';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { errorMessage } from '../lib/api.ts';
import { Loading } from './RequireRole.tsx';

/** A screen's data: a spinner while it loads, the server's Spanish message if it fails, else `children`. */
export function QueryState<Data, Failure = Error>({
  query,
  children,
}: {
  query: UseQueryResult<Data, Failure>;
  children(data: Data): ReactNode;
}) {
  if (query.isPending) return <Loading />;
  if (query.isError) {
    return (
      <Typography role="alert" color="error">
        {errorMessage(query.error)}
      </Typography>
    );
  }
  return children(query.data);
}
