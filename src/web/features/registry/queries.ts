import { keepPreviousData, useQuery } from '@tanstack/react-query';
import {
  addReseller,
  editReseller,
  importRegistry,
  listResellers,
  previewRegistryImport,
  removeReseller,
  updateRegistrySettings,
} from '../../../shared/api/registry.ts';
import { endpointKey, endpointQuery, useEndpointMutation } from '../../lib/api.ts';

/** What the registry page asks for: a page and the search. */
export interface RegistryView {
  page: number;
  q: string;
}

export const resellersQuery = (view: RegistryView) =>
  endpointQuery(listResellers, { query: { page: String(view.page), q: view.q } });

export function useResellers(view: RegistryView) {
  return useQuery({
    ...resellersQuery(view),
    // The page on screen stays while the next one loads: paging never blanks the table.
    placeholderData: keepPreviousData,
  });
}

/** Every write to the registry makes every page and search of it stale. */
const registryWritesInvalidate = () => [endpointKey(listResellers, {})];

export const useAddReseller = () =>
  useEndpointMutation(addReseller, { invalidates: registryWritesInvalidate });
export const useEditReseller = () =>
  useEndpointMutation(editReseller, { invalidates: registryWritesInvalidate });
export const useRemoveReseller = () =>
  useEndpointMutation(removeReseller, { invalidates: registryWritesInvalidate });
export const useUpdateRegistrySettings = () =>
  useEndpointMutation(updateRegistrySettings, { invalidates: registryWritesInvalidate });
/** A preview stores nothing, so it makes nothing stale. */
export const usePreviewRegistryImport = () => useEndpointMutation(previewRegistryImport);
export const useImportRegistry = () =>
  useEndpointMutation(importRegistry, { invalidates: registryWritesInvalidate });
