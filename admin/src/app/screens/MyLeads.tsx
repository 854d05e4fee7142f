import { useEffect, useState } from 'react';
import { ApiRequestError, listLeads, type Lead } from '../api';
import { useApp } from '../context';
import { DATE_LOCALES, isAppTextKey, type AppTextKey } from '../texts';
import { Icon } from '../Icon';
import { Link } from '../Link';

const PAGE = 25;
const SORTS: Record<string, [string, 'ASC' | 'DESC']> = {
  newest: ['ld_captured_at', 'DESC'],
  oldest: ['ld_captured_at', 'ASC'],
  first_name: ['ld_first_name', 'ASC'],
  last_name: ['ld_last_name', 'ASC'],
  email: ['ld_email', 'ASC'],
};
const STATUSES = ['none', 'pending', 'postponed', 'done'] as const;
const ACCOUNT_KEY = 'ls.capture.leads-account';

export interface LeadFilters {
  q: string;
  status: string;
  from: string;
  to: string;
  sort: keyof typeof SORTS | string;
}
const EMPTY: LeadFilters = { q: '', status: '', from: '', to: '', sort: 'newest' };

export function leadName(l: Pick<Lead, 'ld_first_name' | 'ld_last_name' | 'ld_email'>): string {
  return [l.ld_first_name, l.ld_last_name].filter(Boolean).join(' ') || l.ld_email || '';
}

/**
 * My leads (owner = me) in one of my accounts, with the spec's filters: sort (date, first name, last name, e-mail),
 * a date range, the transcription status, and a search that matches the start of the first name, last name or e-mail
 * (the list's `q`). 25 at a time from the server.
 */
export function MyLeads() {
  const { t, events, user, online, locale } = useApp();
  const accounts = events?.accounts ?? [];
  const [accountId, setAccountId] = useState(() => sessionStorage.getItem(ACCOUNT_KEY) ?? '');
  const account = accounts.find((a) => a.a_id === accountId) ?? accounts[0];
  const [filters, setFilters] = useState<LeadFilters>(EMPTY);
  const [typedQ, setTypedQ] = useState('');
  const [leads, setLeads] = useState<Lead[]>([]);
  const [total, setTotal] = useState(0);
  const [state, setState] = useState<'loading' | 'ready' | 'failed' | 'offline'>('loading');
  const [error, setError] = useState('');
  const eventTitles = new Map((events?.events ?? []).map((e) => [e.ev_id, e.ev_title]));

  useEffect(() => {
    document.title = `${t('leads_title')} · ${t('app_name')}`;
  }, [t]);
  // the search waits for a pause in typing
  useEffect(() => {
    const timer = setTimeout(() => setFilters((f) => (f.q === typedQ ? f : { ...f, q: typedQ })), 300);
    return () => clearTimeout(timer);
  }, [typedQ]);

  const load = async (start: number) => {
    if (!account) return;
    if (!navigator.onLine) return setState('offline');
    setState('loading');
    try {
      const page = await listLeads(account.a_id, {
        ownerId: user.u_id,
        q: filters.q,
        status: filters.status,
        from: filters.from,
        to: filters.to ? `${filters.to}T23:59:59.999Z` : '',
        sort: SORTS[filters.sort] ?? SORTS.newest,
        start,
        count: PAGE,
      });
      setLeads((prev) => (start === 0 ? page.leads : [...prev, ...page.leads]));
      setTotal(page.total);
      setState('ready');
    } catch (e) {
      setError(e instanceof ApiRequestError ? e.body.message || e.code : t('error_network'));
      setState(e instanceof ApiRequestError ? 'failed' : 'offline');
    }
  };
  useEffect(() => {
    void load(0);
  }, [account?.a_id, filters, online]); // eslint-disable-line react-hooks/exhaustive-deps

  const set = (patch: Partial<LeadFilters>) => setFilters((f) => ({ ...f, ...patch }));
  const filtered = filters.status || filters.from || filters.to || filters.q || filters.sort !== 'newest';
  const dateLocale = DATE_LOCALES[locale];

  return (
    <section className="cap-screen">
      <h1 tabIndex={-1}>{t('leads_title')}</h1>
      {accounts.length > 1 && (
        <label className="cap-field">
          <span>{t('account')}</span>
          <select
            value={account?.a_id ?? ''}
            onChange={(e) => {
              setAccountId(e.target.value);
              sessionStorage.setItem(ACCOUNT_KEY, e.target.value);
            }}
          >
            {accounts.map((a) => (
              <option key={a.a_id} value={a.a_id}>
                {a.a_name}
              </option>
            ))}
          </select>
        </label>
      )}
      <div className="cap-filters" role="search">
        <label className="cap-field cap-field--wide">
          <span>{t('search')}</span>
          <input type="search" value={typedQ} onChange={(e) => setTypedQ(e.target.value)} placeholder={t('search_hint')} name="q" />
        </label>
        <label className="cap-field">
          <span>{t('sort')}</span>
          <select value={filters.sort} onChange={(e) => set({ sort: e.target.value })} name="sort">
            {Object.keys(SORTS).map((k) => (
              <option key={k} value={k}>
                {t(`sort_${k}` as AppTextKey)}
              </option>
            ))}
          </select>
        </label>
        <label className="cap-field">
          <span>{t('status')}</span>
          <select value={filters.status} onChange={(e) => set({ status: e.target.value })} name="status">
            <option value="">{t('status_all')}</option>
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {t(`status_${s}`)}
              </option>
            ))}
          </select>
        </label>
        <label className="cap-field">
          <span>{t('date_from')}</span>
          <input type="date" value={filters.from} max={filters.to || undefined} onChange={(e) => set({ from: e.target.value })} name="from" />
        </label>
        <label className="cap-field">
          <span>{t('date_to')}</span>
          <input type="date" value={filters.to} min={filters.from || undefined} onChange={(e) => set({ to: e.target.value })} name="to" />
        </label>
        {filtered && (
          <button
            type="button"
            className="cap-linkbtn"
            onClick={() => {
              setTypedQ('');
              setFilters(EMPTY);
            }}
          >
            {t('clear_filters')}
          </button>
        )}
      </div>

      {state === 'offline' ? (
        <p className="cap-note">{t('leads_offline')}</p>
      ) : state === 'failed' ? (
        <p className="cap-error" role="alert">
          {error}
        </p>
      ) : null}
      {leads.length === 0 && state === 'ready' && <p className="cap-empty">{t('no_leads')}</p>}
      {leads.length > 0 && (
        <>
          <p className="cap-muted" aria-live="polite">
            {t('shown_of', { shown: leads.length, total })}
          </p>
          <ul className="cap-list" data-testid="my-leads">
            {leads.map((l) => (
              <li key={l.ld_id}>
                <Link to={{ name: 'lead', accountId: account!.a_id, leadId: l.ld_id }} className="cap-row cap-row--link">
                  <span className="cap-row-main">
                    <span className="cap-row-title">{leadName(l) || t(l.ld_source === 'card' ? 'card_lead' : 'unnamed_lead')}</span>
                    <span className="cap-row-sub">
                      {new Date(l.ld_captured_at).toLocaleString(dateLocale, { dateStyle: 'short', timeStyle: 'short' })}
                      {eventTitles.get(l.ld_eventid) ? ` · ${eventTitles.get(l.ld_eventid)}` : ''}
                      {isAppTextKey(`source_${l.ld_source}`) ? ` · ${t(`source_${l.ld_source}` as AppTextKey)}` : ''}
                    </span>
                  </span>
                  {l.ld_transcription_status !== 'none' && <span className={`cap-chip cap-chip--${l.ld_transcription_status}`}>{t(`status_${l.ld_transcription_status}`)}</span>}
                </Link>
              </li>
            ))}
          </ul>
          {leads.length < total && (
            <button type="button" className="cap-btn cap-btn--block" onClick={() => void load(leads.length)} disabled={state === 'loading'}>
              <Icon name="list" />
              {t('load_more')}
            </button>
          )}
        </>
      )}
      {state === 'loading' && <p className="cap-status">{t('loading')}</p>}
    </section>
  );
}
