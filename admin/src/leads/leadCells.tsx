import Box from '@mui/material/Box';
import { useQuery } from '@tanstack/react-query';
import { useGetList, useLocaleState, useRecordContext, useTranslate, type RaRecord } from 'react-admin';
import { leads } from '../../../resources/leads';
import { DateTimeCell, type CellProps } from '../generated/cells';
import { useDeclaration } from '../generated/declarations';
import { useConsoleAccount } from '../console/ConsoleContext';
import { accountPath } from '../providers/accountPath';
import { api } from '../providers/http';

type Person = { u_email?: unknown; u_first_name?: unknown; u_last_name?: unknown };

/** A person by name, the e-mail in its tooltip (by e-mail when nameless). */
function PersonName({ person }: { person: Person }) {
  const name = [person.u_first_name, person.u_last_name].filter((v) => typeof v === 'string' && v.trim()).join(' ');
  const email = String(person.u_email ?? '');
  return (
    <Box component="span" title={email}>
      {name || email}
    </Box>
  );
}

/**
 * An owner who is not a member (a root user, a member who left): GET …/leads/owners names them, one request per
 * person for the whole page (cached by id); a dash while it answers, never the raw id.
 */
function OwnerOutsideMembers({ userId }: { userId: string }) {
  const { accountId } = useConsoleAccount();
  const { data } = useQuery({
    queryKey: ['lead-owner', accountId, userId],
    queryFn: ({ signal }) => api<Person[]>(`${accountPath(accountId, 'leads', 'owners')}?ids=${encodeURIComponent(userId)}`, { signal }),
    staleTime: 60_000,
  });
  const person = data?.[0];
  return person ? <PersonName person={person} /> : <Box component="span">—</Box>;
}

/**
 * The leads table has nine columns; these two keep it within a 1280 px screen with the menu open, so the capture time
 * (the default sort) is not pushed out of sight.
 */

/** The owner by name only (the e-mail in its tooltip), whether a member of the account or not (a root user). */
export function OwnerCell({ record, source }: CellProps) {
  const members = useDeclaration('members');
  // The same query as the generated reference cell: one request for the whole page.
  const { data } = useGetList('members', { pagination: { page: 1, perPage: 100 }, sort: members?.defaultSort ?? { field: 'id', order: 'ASC' }, filter: {} });
  const owner = record[source];
  if (typeof owner !== 'string' || !owner) return <Box component="span">—</Box>;
  const row = data?.find((r) => r.au_userid === owner);
  if (row) return <PersonName person={row} />;
  return data ? <OwnerOutsideMembers userId={owner} /> : null;
}

/** The capture time on one line. */
export function CapturedCell(props: CellProps) {
  return (
    <Box component="span" sx={{ whiteSpace: 'nowrap' }}>
      <DateTimeCell {...props} />
    </Box>
  );
}

/** The rating as stars (★★★☆☆), its number for a screen reader; none when not rated. */
export function RatingCell({ record, source }: CellProps) {
  const translate = useTranslate();
  const v = record[source];
  if (typeof v !== 'number')
    return (
      <Box component="span" sx={{ color: 'text.disabled' }}>
        —
      </Box>
    );
  return (
    <Box
      component="span"
      sx={{ whiteSpace: 'nowrap', color: 'warning.main', letterSpacing: 1 }}
      title={translate('ls.console.leads.rating_of', { rating: v })}
      aria-label={translate('ls.console.leads.rating_of', { rating: v })}
    >
      {'★'.repeat(v)}
      <Box component="span" sx={{ color: 'text.disabled' }}>
        {'☆'.repeat(Math.max(0, 5 - v))}
      </Box>
    </Box>
  );
}

export const LEAD_CELLS = { ld_ownerid: OwnerCell, ld_captured_at: CapturedCell, ld_rating: RatingCell };

/**
 * A lead in words: its name and e-mail; a lead without either yet (a card still to type, a scan the provider did not
 * know) by its source, with the capture time when asked ("Business card · 22 Nov 2026, 14:05"), never a raw timestamp.
 */
export function useLeadTitle(record: RaRecord | undefined, withTime: boolean): string {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  if (!record) return '';
  const named = leads.represent?.(record);
  if (named) return named;
  const source = translate(`resources.leads.options.ld_source.${String(record.ld_source)}`, { _: String(record.ld_source ?? '') });
  const badge = typeof record.ld_badge_code === 'string' && record.ld_badge_code ? record.ld_badge_code : '';
  const at = new Date(String(record.ld_captured_at ?? ''));
  const time = withTime && !Number.isNaN(at.getTime()) ? new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(at) : '';
  return [source, badge, time].filter(Boolean).join(' · ');
}

/** A phone row's title in the leads list. */
export function LeadRowTitle({ record }: { record: RaRecord }) {
  return <>{useLeadTitle(record, false)}</>;
}

/** The lead page's title. */
export function LeadPageTitle() {
  return <>{useLeadTitle(useRecordContext(), true)}</>;
}
