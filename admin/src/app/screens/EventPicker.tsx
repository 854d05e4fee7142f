import { useEffect } from 'react';
import { Link } from '../Link';
import { useApp } from '../context';
import { DATE_LOCALES } from '../texts';
import { Icon } from '../Icon';
import type { AppEvent } from '../api';

function formatDate(value: string, locale: string): string {
  const [y, m, d] = value.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, d)).toLocaleDateString(locale, { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
}

/** The active events of the caller's accounts (GET /api/1/app/events, or as last seen on this device). */
export function EventPicker() {
  const { t, events, eventsFrom, eventsAt, reloadEvents, locale } = useApp();
  useEffect(() => {
    document.title = `${t('events_title')} · ${t('app_name')}`;
  }, [t]);
  const dateLocale = DATE_LOCALES[locale];
  const dates = (ev: AppEvent) => {
    if (!ev.ev_start_date && !ev.ev_end_date) return t('event_open_ended');
    return t('event_dates', { from: ev.ev_start_date ? formatDate(ev.ev_start_date, dateLocale) : '…', to: ev.ev_end_date ? formatDate(ev.ev_end_date, dateLocale) : '…' });
  };
  const byAccount = new Map<string, AppEvent[]>();
  for (const ev of events?.events ?? []) byAccount.set(ev.a_id, [...(byAccount.get(ev.a_id) ?? []), ev]);
  const several = byAccount.size > 1;

  return (
    <section className="cap-screen">
      <h1 tabIndex={-1}>{t('events_title')}</h1>
      {eventsFrom === 'cache' && (
        <p className="cap-note">{t('events_cached', { time: eventsAt ? new Date(eventsAt).toLocaleString(dateLocale, { dateStyle: 'short', timeStyle: 'short' }) : '—' })}</p>
      )}
      {events === null && eventsFrom === null ? (
        <div className="cap-empty">
          <p>{t('events_unavailable')}</p>
          <button type="button" className="cap-btn" onClick={() => void reloadEvents()}>
            <Icon name="refresh" />
            {t('retry')}
          </button>
        </div>
      ) : events && events.events.length === 0 ? (
        <div className="cap-empty" data-testid="no-active-events">
          <Icon name="event" className="cap-empty-icon" />
          <p className="cap-empty-title">{t('no_active_events')}</p>
          <p className="cap-muted">{t('no_active_events_hint')}</p>
        </div>
      ) : (
        [...byAccount].map(([accountId, list]) => (
          <div key={accountId} className="cap-group">
            {several && <h2 className="cap-group-title">{list[0].a_name}</h2>}
            <ul className="cap-list">
              {list.map((ev) => (
                <li key={ev.ev_id}>
                  <Link to={{ name: 'capture', accountId, eventId: ev.ev_id }} className="cap-row cap-row--link">
                    <span className="cap-row-main">
                      <span className="cap-row-title">{ev.ev_title}</span>
                      <span className="cap-row-sub">
                        {several ? '' : `${ev.a_name} · `}
                        {dates(ev)}
                      </span>
                    </span>
                    <Icon name="qr" />
                  </Link>
                </li>
              ))}
            </ul>
          </div>
        ))
      )}
    </section>
  );
}
