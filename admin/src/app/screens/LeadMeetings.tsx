import { useCallback, useEffect, useState } from 'react';
import { ApiRequestError, bookMeeting, freeSlots, leadMeetings, type FreeSlot, type Lead, type LeadMeeting } from '../api';
import { useApp } from '../context';
import { DATE_LOCALES, isAppTextKey } from '../texts';
import { Icon } from '../Icon';

const names = (first?: string | null, last?: string | null) => [first, last].filter((v) => v && v.trim()).join(' ');

/**
 * The lead's meetings on its page, and "Book a meeting": the free slots of the lead's event (as the public booking
 * page lists them, in the account's time zone), one tap books it for this lead (POST …/meetings). A slot of my own or
 * without a host is booked accepted (the visitor gets the invitation); another host's slot as a request they accept.
 */
export function LeadMeetings({ accountId, lead, me }: { accountId: string; lead: Lead; me: string }) {
  const app = useApp();
  const { t, online, locale } = app;
  const [meetings, setMeetings] = useState<LeadMeeting[] | null>(null);
  const [open, setOpen] = useState(false);
  const [slots, setSlots] = useState<{ time_zone: string; slots: FreeSlot[] } | null>(null);
  const [zone, setZone] = useState<string | undefined>();
  const [error, setError] = useState('');
  const [busy, setBusy] = useState<string | null>(null);

  const loadMeetings = useCallback(() => {
    leadMeetings(accountId, lead.ld_id).then(setMeetings, () => setMeetings([]));
  }, [accountId, lead.ld_id]);
  useEffect(() => {
    if (online) loadMeetings();
  }, [online, loadMeetings]);
  const loadSlots = useCallback(() => {
    setError('');
    freeSlots(lead.ld_eventid).then(
      (s) => {
        setSlots(s);
        setZone(s.time_zone);
      },
      () => setSlots({ time_zone: zone ?? 'UTC', slots: [] }),
    );
  }, [lead.ld_eventid, zone]);
  useEffect(() => {
    if (open && online && !slots) loadSlots();
  }, [open, online, slots, loadSlots]);
  // The account's zone for the meetings already booked, before the picker opens.
  useEffect(() => {
    if (online && meetings?.length && !zone)
      freeSlots(lead.ld_eventid).then(
        (s) => setZone(s.time_zone),
        () => undefined,
      );
  }, [online, meetings, zone, lead.ld_eventid]);

  const fmt = (iso: string, options: Intl.DateTimeFormatOptions) => {
    try {
      return new Date(iso).toLocaleString(DATE_LOCALES[locale], { ...options, timeZone: zone });
    } catch {
      return new Date(iso).toLocaleString(DATE_LOCALES[locale], options);
    }
  };
  const when = (start: string, end: string) =>
    `${fmt(start, { weekday: 'short', day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' })}–${fmt(end, { hour: '2-digit', minute: '2-digit' })}`;

  const book = async (slot: FreeSlot) => {
    setBusy(slot.ms_id);
    setError('');
    try {
      await bookMeeting(accountId, {
        mg_eventid: lead.ld_eventid,
        mg_slotid: slot.ms_id,
        mg_leadid: lead.ld_id,
        mg_status: !slot.ms_hostid || slot.ms_hostid === me ? 'accepted' : 'requested',
      });
      app.toast(t('meeting_booked', { time: when(slot.ms_start, slot.ms_end) }));
      setOpen(false);
      setSlots(null);
      loadMeetings();
    } catch (err) {
      if (err instanceof ApiRequestError) {
        const key = `error_${err.code}`;
        setError(isAppTextKey(key) ? t(key) : err.body.message || t('error_unknown'));
        if (err.code === 'slot_full') loadSlots();
      } else setError(t('meeting_offline'));
    } finally {
      setBusy(null);
    }
  };

  // Slots grouped by day, in the account's zone.
  const days: { day: string; slots: FreeSlot[] }[] = [];
  for (const s of slots?.slots ?? []) {
    const day = fmt(s.ms_start, { weekday: 'long', day: 'numeric', month: 'long' });
    const last = days[days.length - 1];
    if (last && last.day === day) last.slots.push(s);
    else days.push({ day, slots: [s] });
  }

  return (
    <section className="cap-card" aria-labelledby="lead-meetings-title" data-testid="lead-meetings">
      <h2 className="cap-form-title" id="lead-meetings-title">
        {t('meetings_title')}
      </h2>
      {meetings && meetings.length > 0 && (
        <ul className="cap-meetings">
          {meetings.map((m) => {
            const host = names(m.host_first_name, m.host_last_name);
            return (
              <li key={m.mg_id} data-testid="lead-meeting" data-status={m.mg_status}>
                <span className="cap-meeting-when">{when(m.ms_start, m.ms_end)}</span>
                <span className={`cap-chip cap-chip--meeting-${m.mg_status}`}>{t(`meeting_status_${m.mg_status}`)}</span>
                {(host || m.ms_location) && (
                  <span className="cap-muted cap-meeting-where">{[host && t('meeting_with', { name: host }), m.ms_location].filter(Boolean).join(' · ')}</span>
                )}
              </li>
            );
          })}
        </ul>
      )}
      {!open ? (
        <button type="button" className="cap-btn cap-btn--block" onClick={() => setOpen(true)} disabled={!online}>
          <Icon name="event" />
          {t('meeting_book')}
        </button>
      ) : (
        <div>
          <h3 className="cap-meeting-pick">{t('meeting_pick')}</h3>
          {!online && <p className="cap-note">{t('meeting_offline')}</p>}
          {slots === null && online && <p className="cap-status">{t('loading')}</p>}
          {slots && slots.slots.length === 0 && <p className="cap-note">{t('meeting_no_slots')}</p>}
          {days.map((d) => (
            <div key={d.day} className="cap-meeting-day">
              <h4>{d.day}</h4>
              <div className="cap-slots">
                {d.slots.map((s) => {
                  const host = s.host ? names(s.host.u_first_name, s.host.u_last_name) : '';
                  return (
                    <button
                      key={s.ms_id}
                      type="button"
                      className="cap-btn cap-slot"
                      onClick={() => book(s)}
                      disabled={busy !== null}
                      aria-busy={busy === s.ms_id}
                      data-testid="app-slot"
                    >
                      <strong>{fmt(s.ms_start, { hour: '2-digit', minute: '2-digit' })}</strong>
                      {host && <span className="cap-muted">{host}</span>}
                    </button>
                  );
                })}
              </div>
            </div>
          ))}
          {error && (
            <p className="cap-error" role="alert">
              {error}
            </p>
          )}
          <div className="cap-savebar">
            <button type="button" className="cap-btn" onClick={() => setOpen(false)}>
              {t('cancel')}
            </button>
          </div>
        </div>
      )}
    </section>
  );
}
