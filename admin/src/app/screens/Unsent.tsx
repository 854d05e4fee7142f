import { useEffect, useState } from 'react';
import { useApp } from '../context';
import type { QueuedLead } from '../queue';
import { DATE_LOCALES } from '../texts';
import { Icon } from '../Icon';

/** The leads still on this device: waiting for the network, or refused by the server (with the reason). */
export function Unsent() {
  const { t, queue, user, sync, online, locale, unsent } = useApp();
  const [leads, setLeads] = useState<QueuedLead[] | null>(null);
  useEffect(() => {
    document.title = `${t('unsent_title')} · ${t('app_name')}`;
  }, [t]);
  useEffect(() => {
    let alive = true;
    queue.list(user.u_id).then((l) => alive && setLeads(l));
    return () => {
      alive = false;
    };
  }, [queue, user, unsent]);

  return (
    <section className="cap-screen">
      <h1 tabIndex={-1}>{t('unsent_title')}</h1>
      {leads && leads.length > 0 && (
        <button type="button" className="cap-btn" onClick={() => sync.kick()} disabled={!online}>
          <Icon name="upload" />
          {t('send_now')}
        </button>
      )}
      {leads === null ? (
        <p className="cap-status">{t('loading')}</p>
      ) : leads.length === 0 ? (
        <p className="cap-empty">{t('unsent_empty')}</p>
      ) : (
        <ul className="cap-list" data-testid="unsent-list">
          {leads.map((l) => (
            <li key={l.clientId} className="cap-row">
              <span className="cap-row-main">
                <span className="cap-row-title">{l.update ? t('unsent_update', { name: l.label || t('unnamed_lead') }) : l.label || t('unnamed_lead')}</span>
                <span className="cap-row-sub">
                  {new Date(l.body.ld_captured_at).toLocaleString(DATE_LOCALES[locale], { dateStyle: 'short', timeStyle: 'short' })} ·{' '}
                  {l.state === 'rejected' ? t('unsent_rejected', { message: l.error?.message || l.error?.code || '' }) : t('unsent_waiting')}
                </span>
              </span>
              {l.state === 'rejected' && (
                <button type="button" className="cap-iconbtn" aria-label={t('retry')} onClick={() => void queue.retry(l.clientId).then(() => sync.kick())}>
                  <Icon name="refresh" />
                </button>
              )}
              <button
                type="button"
                className="cap-iconbtn"
                aria-label={t('delete')}
                onClick={() => {
                  if (window.confirm(t('delete_unsent'))) void queue.remove(l.clientId);
                }}
              >
                <Icon name="trash" />
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
