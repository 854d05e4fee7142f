import { Pagination, SearchInput, useListContext, useTranslate } from 'react-admin';

/** Spec 9: 25 rows per page. */
export const PAGE_SIZE = 25;

/** No pager for a single page (spec 5); otherwise react-admin's pager with the fixed page size. */
export function SinglePagePagination() {
  const { total, perPage, page } = useListContext();
  if (total === undefined || (total <= perPage && page === 1)) return null;
  return <Pagination rowsPerPageOptions={[PAGE_SIZE]} />;
}

/** The list search box: filter.q, a case-insensitive prefix search on the server (react-admin resets to page 1). */
export function useSearchFilters() {
  const translate = useTranslate();
  return [<SearchInput key="q" source="q" alwaysOn placeholder={translate('ls.list.search_placeholder')} sx={{ minWidth: { xs: '100%', sm: 300 } }} />];
}
