import { describe, expectTypeOf, it, expect } from 'vitest';
import type { RecordOf } from '../../resources/records.js';
import { events } from '../../resources/events.js';
import { handoffs } from '../../resources/handoffs.js';

/** A record's type follows its declaration (resources/records.ts): kinds, enum options, null where a field may be empty. */
describe('RecordOf', () => {
  it('types an event from its declaration', () => {
    type Event = RecordOf<typeof events>;
    expectTypeOf<Event['ev_title']>().toEqualTypeOf<string>();
    expectTypeOf<Event['ev_access_type']>().toEqualTypeOf<'open' | 'closed' | 'restricted'>();
    expectTypeOf<Event['ev_is_enabled']>().toEqualTypeOf<boolean>();
    expectTypeOf<Event['ev_start_date']>().toEqualTypeOf<string | null>();
    expectTypeOf<Event['ev_id']>().toEqualTypeOf<string>();
    expectTypeOf<Event['ev_accountid']>().toEqualTypeOf<string>();
    expectTypeOf<Event['id']>().toEqualTypeOf<string>();
    expectTypeOf<RecordOf<typeof handoffs>['ho_status']>().toEqualTypeOf<'pending' | 'accepted' | 'not_available'>();
    // The declaration keeps its prefix at run time too.
    expect(events.prefix).toBe('ev');
  });
});
