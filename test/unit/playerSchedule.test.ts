import { describe, expect, it } from 'vitest';
import { groupSequence, homePosition, localClock, relocate, step, windowOpen } from '../../admin/src/player/logic';
import type { Carousel, Manifest, Schedule } from '../../admin/src/player/types';

/** Dayparting in the player (platform-and-flows.md 7; admin/src/player/logic.ts): windows, time zones, fallbacks. */

const carousel = (id: string, slides = 1): Carousel => ({
  c_id: id,
  c_name: id,
  c_title: id,
  variants: [],
  slides: Array.from({ length: slides }, (_, i) => ({
    sl_id: `${id}-s${i}`,
    sl_name: null,
    sl_title: `${id} ${i}`,
    sl_subtitle: null,
    sl_order: i,
    sl_duration_ms: 1000,
    sl_bgcolor: null,
    layers: {},
  })),
});

function manifest(schedules: Schedule[], extra: Partial<Manifest> = {}): Manifest {
  return {
    code: 'ACDEFGHJKM',
    code_title: null,
    account_id: 'a',
    group: { cg_id: 'g', cg_title: 'G' },
    carousel_ids: ['plain'],
    standby_carouselid: 'standby',
    carousels: {
      plain: carousel('plain'),
      breakfast: carousel('breakfast', 2),
      night: carousel('night'),
      lunch: carousel('lunch'),
      empty: carousel('empty', 0),
      standby: carousel('standby'),
    },
    assets: {},
    collections: {},
    local_server_url: null,
    timezone: 'Europe/Amsterdam',
    schedules,
    ...extra,
  };
}
const sched = (carousel_id: string, days: string[], from: string, to: string, order = 0): Schedule => ({ carousel_id, days, from, to, order });
const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri'];
const ALL = [...WEEKDAYS, 'sat', 'sun'];

describe('localClock', () => {
  it('reads the wall clock of the zone, with its DST rules', () => {
    // 2026-03-29 (Sunday) is the spring change in Europe: 01:00 UTC is 03:00 CEST; 00:59 UTC still 01:59 CET
    expect(localClock(new Date('2026-03-29T00:59:00Z'), 'Europe/Amsterdam')).toEqual({ day: 6, minutes: 1 * 60 + 59 });
    expect(localClock(new Date('2026-03-29T01:00:00Z'), 'Europe/Amsterdam')).toEqual({ day: 6, minutes: 3 * 60 });
    // 2026-10-25: the autumn change, 01:00 UTC is 02:00 CET again
    expect(localClock(new Date('2026-10-25T00:30:00Z'), 'Europe/Amsterdam')).toEqual({ day: 6, minutes: 2 * 60 + 30 });
    expect(localClock(new Date('2026-10-25T01:30:00Z'), 'Europe/Amsterdam')).toEqual({ day: 6, minutes: 2 * 60 + 30 });
    // another zone: Monday 2026-11-30 03:00 UTC is Sunday 22:00 in New York
    expect(localClock(new Date('2026-11-30T03:00:00Z'), 'America/New_York')).toEqual({ day: 6, minutes: 22 * 60 });
    // midnight is 0, not 24
    expect(localClock(new Date('2026-11-30T23:00:00Z'), 'Europe/Amsterdam')).toEqual({ day: 1, minutes: 0 });
    // an unknown zone: the default one
    expect(localClock(new Date('2026-11-30T11:00:00Z'), 'Mars/Olympus')).toEqual({ day: 0, minutes: 12 * 60 });
  });
});

describe('windowOpen', () => {
  const at = (day: number, hhmm: string) => ({ day, minutes: Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3)) });
  it('a window within a day: from included, to excluded, listed days only', () => {
    const s = sched('x', ['mon', 'wed'], '07:00', '11:30');
    expect(windowOpen(s, at(0, '06:59'))).toBe(false);
    expect(windowOpen(s, at(0, '07:00'))).toBe(true);
    expect(windowOpen(s, at(0, '11:29'))).toBe(true);
    expect(windowOpen(s, at(0, '11:30'))).toBe(false);
    expect(windowOpen(s, at(1, '08:00'))).toBe(false);
    expect(windowOpen(s, at(2, '08:00'))).toBe(true);
  });
  it('a window crossing midnight belongs to the day it starts on', () => {
    const s = sched('x', ['fri', 'sun'], '22:00', '02:00');
    expect(windowOpen(s, at(4, '21:59'))).toBe(false);
    expect(windowOpen(s, at(4, '22:00'))).toBe(true);
    expect(windowOpen(s, at(4, '23:59'))).toBe(true);
    expect(windowOpen(s, at(5, '00:00'))).toBe(true); // Saturday night, started Friday
    expect(windowOpen(s, at(5, '01:59'))).toBe(true);
    expect(windowOpen(s, at(5, '02:00'))).toBe(false);
    expect(windowOpen(s, at(5, '23:00'))).toBe(false); // Saturday is not listed
    expect(windowOpen(s, at(0, '01:00'))).toBe(true); // Sunday's window runs into Monday (the week wraps)
    expect(windowOpen(s, at(6, '01:00'))).toBe(false);
  });
  it('from = to is the whole listed day; a malformed time never opens', () => {
    expect(windowOpen(sched('x', ['tue'], '00:00', '00:00'), at(1, '23:59'))).toBe(true);
    expect(windowOpen(sched('x', ['tue'], '00:00', '00:00'), at(2, '00:00'))).toBe(false);
    expect(windowOpen(sched('x', ALL, '7:00', '08:00'), at(1, '07:30'))).toBe(false);
  });
});

describe('groupSequence and home: open windows, else the plain list, else standby', () => {
  const m = manifest([sched('night', ALL, '22:00', '02:00', 2), sched('breakfast', WEEKDAYS, '07:00', '11:00', 1), sched('lunch', WEEKDAYS, '10:00', '14:00', 3)]);
  // 2026-11-30 is a Monday; Amsterdam is UTC+1 in winter
  const local = (hhmm: string, date = '2026-11-30') => new Date(new Date(`${date}T${hhmm}:00+01:00`).getTime());

  it('plays the open windows in their order, several at once', () => {
    expect(groupSequence(m, local('08:00'))).toEqual(['breakfast']);
    expect(groupSequence(m, local('10:30'))).toEqual(['breakfast', 'lunch']);
    expect(groupSequence(m, local('23:00'))).toEqual(['night']);
    expect(groupSequence(m, local('01:00', '2026-12-01'))).toEqual(['night']);
  });
  it('falls back to the plain list outside every window, on the weekend too', () => {
    expect(groupSequence(m, local('15:00'))).toEqual(['plain']);
    expect(groupSequence(m, local('08:00', '2026-12-05'))).toEqual(['plain']);
    expect(homePosition(m, local('15:00'))).toEqual({ mode: 'group', carouselId: 'plain', index: 0 });
  });
  it('a window of a carousel without slides does not count', () => {
    const empty = manifest([sched('empty', ALL, '00:00', '00:00')]);
    expect(groupSequence(empty, local('12:00'))).toEqual(['plain']);
  });
  it('nothing in the list and no window open: the standby carousel; nothing at all: undefined', () => {
    const bare = manifest([sched('breakfast', WEEKDAYS, '07:00', '11:00')], { carousel_ids: [] });
    expect(homePosition(bare, local('08:00'))).toEqual({ mode: 'group', carouselId: 'breakfast', index: 0 });
    expect(homePosition(bare, local('12:00'))).toEqual({ mode: 'standby', carouselId: 'standby', index: 0 });
    expect(homePosition({ ...bare, standby_carouselid: null }, local('12:00'))).toBeUndefined();
  });
  it('the time zone of the manifest decides: the same instant in New York is still night', () => {
    const ny = { ...m, timezone: 'America/New_York' };
    // 08:00 in Amsterdam is 02:00 in New York: not breakfast there; Monday 01:00 NY is inside Sunday's night window
    expect(groupSequence(ny, local('08:00'))).toEqual(['plain']);
    expect(groupSequence(ny, local('07:00'))).toEqual(['night']);
  });
  it('across the spring DST change a window follows the local clock', () => {
    const early = manifest([sched('breakfast', ['sun'], '03:00', '04:00')]);
    // 2026-03-29 01:30 UTC = 03:30 CEST (two hours ahead since 01:00 UTC)
    expect(groupSequence(early, new Date('2026-03-29T01:30:00Z'))).toEqual(['breakfast']);
    expect(groupSequence(early, new Date('2026-03-29T02:00:00Z'))).toEqual(['plain']);
  });
  it('step: at a carousel end the sequence of now is followed; a closed window gives way to the list', () => {
    const pos = { mode: 'group' as const, carouselId: 'breakfast', index: 1 };
    expect(step(m, pos, 1, () => undefined, local('10:30'))).toEqual({ mode: 'group', carouselId: 'lunch', index: 0 });
    expect(step(m, pos, 1, () => undefined, local('15:00'))).toEqual({ mode: 'group', carouselId: 'plain', index: 0 });
    // within a carousel the next slide is played whatever the clock
    expect(step(m, { ...pos, index: 0 }, 1, () => undefined, local('15:00'))).toEqual({ ...pos, index: 1 });
    // relocate: a carousel whose window closed is not "in play": home of now
    expect(relocate(m, pos, 'breakfast-s1', local('15:00'))).toEqual({ mode: 'group', carouselId: 'plain', index: 0 });
    expect(relocate(m, pos, 'breakfast-s1', local('08:00'))).toEqual(pos);
  });
});
