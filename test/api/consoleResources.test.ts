import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachDb } from '../helpers/db.js';
import { MISSING, withGrant, type Signed, type TestApp } from '../helpers/app.js';
import { uploadAssetFile } from '../helpers/assets.js';
import { accountPath, countIn, createRecord, parentField, sampleBody, startConsoleApp } from '../helpers/console.js';
import { meetingSlots } from '../../resources/meetings.js';
import { insertEvent, insertLead } from '../helpers/leadRows.js';
import { ACCOUNT_RESOURCES } from '../../resources/index.js';
import { carousels, slides, variants } from '../../resources/carousels.js';
import { can, PERMISSIONS, ROLES } from '../../resources/permissions.js';
import { fieldsOf } from '../../resources/define.js';
import type { ResourceDeclaration } from '../../resources/types.js';

type Row = Record<string, unknown>;

/**
 * One table-driven test over every account resource of the registry (account-console.md section 3), generated from
 * the declarations: a resource added to ACCOUNT_RESOURCES is covered without writing a test.
 */
const COLLECTIONS = ACCOUNT_RESOURCES.filter((d) => !d.singleton);
const SINGLETONS = ACCOUNT_RESOURCES.filter((d) => d.singleton);

describeEachDb('account resources from the registry', (kind) => {
  let t: TestApp;
  let root: Signed;
  let a: string; // the account the tests work in
  let b: string; // another account
  let memberOfA: Signed;

  beforeAll(async () => {
    ({ t, root, a, b } = await startConsoleApp(kind, 'Console'));
    memberOfA = await t.signedIn('member');
    await t.member(a, memberOfA.userId, 'member');
  });
  afterAll(() => t?.close());

  /** Extra fields a resource's create needs that the declaration cannot make (a user to add as member; a lead and a member to hand it to). */
  const extra = async (decl: ResourceDeclaration, account = a): Promise<Row> => {
    if (decl.name === 'members') return { au_userid: (await t.user(`m${Date.now()}${Math.random()}@example.com`)).u_id };
    if (decl.name === 'handoffs') {
      const rep = await t.user(`h${Date.now()}${Math.random()}@example.com`);
      await t.member(account, rep.u_id);
      const lead = await insertLead(t.db, account, (await insertEvent(t.db, account)).ev_id);
      return { ho_leadid: lead.ld_id, ho_to_userid: rep.u_id };
    }
    if (decl.name === 'assets') return uploadAssetFile(t, root, account);
    // A slot ends after it starts (and is still to come, so a meeting can be booked in it); a meeting's slot is of its event.
    const slotTimes = () => {
      const start = Date.now() + 7 * 86400_000 + Math.floor(Math.random() * 10_000) * 3600_000;
      return { ms_start: new Date(start).toISOString(), ms_end: new Date(start + 1800_000).toISOString() };
    };
    if (decl.name === 'meeting-slots') return slotTimes();
    if (decl.name === 'meetings') {
      const ev = await insertEvent(t.db, account);
      const slot = await createRecord(root, account, meetingSlots, { ms_eventid: ev.ev_id, ...slotTimes() });
      return { mg_eventid: ev.ev_id, mg_slotid: slot.ms_id };
    }
    // A saved view names a list the caller may open.
    if (decl.name === 'views') return { vw_resource: 'events' };
    if (decl.name === 'layers') {
      // A layer's variant must be of its slide's carousel; an iframe layer needs nothing else.
      const carousel = await createRecord(root, account, carousels);
      const slide = await createRecord(root, account, slides, { sl_carouselid: carousel.c_id });
      const variant = await createRecord(root, account, variants, { v_carouselid: carousel.c_id });
      return { ly_slideid: slide.sl_id, ly_variantid: variant.v_id, ly_type: 'iframe', ly_iframe_url: 'https://example.com/show' };
    }
    // A schedule's days are an array and its times HH:MM (no field kind of the registry makes them).
    if (decl.name === 'group-schedules') return { gs_days: ['mon', 'fri'], gs_from: '08:00', gs_to: '12:30' };
    return {};
  };
  const create = async (decl: ResourceDeclaration, account = a) => createRecord(root, account, decl, await extra(decl, account));

  for (const decl of COLLECTIONS) {
    describe(decl.name, () => {
      const path = (account = a) => accountPath(account, decl);
      const pk = decl.primaryKey;
      // A group without a delete bit (handoffs: the history stays) refuses every delete with 403.
      const deletable = can('root', decl.group, decl.operations.delete!, PERMISSIONS);

      it('create answers 201 with what was stored, the account from the route (never the body), and lists it', async () => {
        const body = await sampleBody(root, a, decl, { ...(await extra(decl)), [decl.accountKey!]: b });
        const res = await root.post(path(), body);
        expect(res.status, JSON.stringify(res.body)).toBe(201);
        expect(res.body.id).toBe(res.body[pk]);
        const stored = await t.db(decl.table).where(pk, String(res.body.id)).first();
        expect(stored[decl.accountKey!]).toBe(a);
        const got = await root.get(`${path()}/${res.body.id}`);
        expect(got.status).toBe(200);
        for (const [field, meta] of fieldsOf(decl)) {
          if (!(field in body) || meta.kind === 'secret') continue;
          expect(got.body[field], field).toEqual(body[field]);
        }
        for (const [field, meta] of fieldsOf(decl)) if (meta.kind === 'secret') expect(got.body).not.toHaveProperty(field);
        const list = await root.get(path());
        expect(list.status).toBe(200);
        expect(list.body.map((r: Row) => r.id)).toContain(res.body.id);
      });

      it('without a session: 401, nothing stored', async () => {
        const anon = t.client();
        const before = await countIn(t, decl, a);
        expect((await anon.get(path())).status).toBe(401);
        const res = await anon.post(path(), await sampleBody(root, a, decl, await extra(decl)));
        expect(res.status).toBe(401);
        expect(await countIn(t, decl, a)).toBe(before);
      });

      it('without the CSRF header: 403, nothing stored', async () => {
        const before = await countIn(t, decl, a);
        const res = await root.post(path(), await sampleBody(root, a, decl, await extra(decl)), { csrf: false });
        expect(res.status).toBe(403);
        expect(await countIn(t, decl, a)).toBe(before);
      });

      it('a role without the bit: 403 on create, nothing stored', async () => {
        const body = await sampleBody(root, a, decl, await extra(decl));
        const before = await countIn(t, decl, a);
        const op = decl.operations.create!;
        // The matrix's own case where it has one (member on forms create); else the bit taken away as ops would.
        const lacking = ROLES.find((r) => r !== 'root' && !can(r, decl.group, op, PERMISSIONS));
        if (lacking === 'member') {
          expect((await memberOfA.post(path(), body)).status).toBe(403);
        } else {
          await withGrant(t, 'member', decl.group, 0, async () => {
            expect((await memberOfA.post(path(), body)).status).toBe(403);
            expect((await memberOfA.get(path())).status).toBe(403);
          });
        }
        expect(await countIn(t, decl, a)).toBe(before);
      });

      it("another account's record answers 404 like an unknown one, and stays unchanged", async () => {
        const record = await create(decl, a);
        const id = String(record.id);
        const storedBefore = await t.db(decl.table).where(pk, id).first();
        expect((await root.get(`${path(b)}/${id}`)).status).toBe(404);
        expect((await root.get(`${path(b)}/${MISSING}`)).status).toBe(404);
        expect((await root.put(`${path(b)}/${id}`, {})).status).toBe(404);
        expect((await root.delete(`${path(b)}/${id}`)).status).toBe(deletable ? 404 : 403);
        expect(await t.db(decl.table).where(pk, id).first()).toEqual(storedBefore);
        const listB = await root.get(path(b));
        expect(listB.body.map((r: Row) => r.id)).not.toContain(id);
      });

      const parent = parentField(decl);
      if (parent) {
        it(`a parent (${parent[0]}) from another account answers 404, nothing stored`, async () => {
          const body = await sampleBody(root, b, decl, await extra(decl, b)); // references made in account B
          const before = await countIn(t, decl, a);
          const res = await root.post(path(a), body);
          expect(res.status, JSON.stringify(res.body)).toBe(404);
          expect(await countIn(t, decl, a)).toBe(before);
        });
      }

      it('an invalid body answers 400 with field errors, nothing stored', async () => {
        const before = await countIn(t, decl, a);
        const res = await root.post(path(), {});
        expect(res.status).toBe(400);
        expect(Object.keys(res.body.fields ?? {}).length).toBeGreaterThan(0);
        for (const key of Object.values(res.body.fields as Record<string, string>)) expect(key).toMatch(/^error_/);
        expect(await countIn(t, decl, a)).toBe(before);
      });

      it('update stores a change; delete removes the record', async () => {
        const record = await create(decl, a);
        const textField = fieldsOf(decl).find(([, m]) => (m.kind === 'text' || m.kind === 'longtext') && !m.readOnly && !m.createOnly)?.[0];
        // a schedule's text fields are times
        const changed = decl.name === 'group-schedules' ? '23:15' : 'Changed';
        if (textField) {
          const res = await root.put(`${path()}/${record.id}`, { [textField]: changed });
          expect(res.status, JSON.stringify(res.body)).toBe(200);
          expect((await root.get(`${path()}/${record.id}`)).body[textField]).toBe(changed);
        }
        expect((await root.delete(`${path()}/${record.id}`)).status).toBe(deletable ? 200 : 403);
        // An invite is revoked, not deleted (account-console.md: delete = revoke).
        if (!deletable) expect(await t.db(decl.table).where(pk, String(record.id)).first()).toBeTruthy();
        else if (decl.name === 'invites') expect((await t.db(decl.table).where(pk, String(record.id)).first()).iv_status).toBe('revoked');
        else if (decl.trash) {
          // A trash resource's delete moves it to the trash (platform-and-flows.md 1): gone from the API, and the purge
          // removes the row.
          expect((await root.get(`${path()}/${record.id}`)).status).toBe(404);
          expect((await root.get(`${path()}/trash`)).body.map((r: Row) => r.id)).toContain(record.id);
          expect((await root.delete(`${path()}/${record.id}/purge`)).status).toBe(200);
          expect(await t.db(decl.table).where(pk, String(record.id)).first()).toBeUndefined();
        } else expect(await t.db(decl.table).where(pk, String(record.id)).first()).toBeUndefined();
      });

      if (decl.order) {
        it('reorder: the complete children answer in their new order; a partial or foreign list is refused', async () => {
          const first = await create(decl, a);
          const parents = Object.fromEntries(decl.order!.parent.map((c) => [c, first[c] ?? null]));
          const siblings = [
            first,
            await createRecord(root, a, decl, { ...(await extra(decl)), ...parents }),
            await createRecord(root, a, decl, { ...(await extra(decl)), ...parents }),
          ];
          const ids = siblings.map((s) => String(s.id)).reverse();
          const res = await root.put(`${path()}/order`, { ids });
          expect(res.status, JSON.stringify(res.body)).toBe(200);
          expect(res.body.map((r: Row) => r.id)).toEqual(ids);
          const stored = await t.db(decl.table).whereIn(pk, ids).orderBy(decl.order!.field).pluck(pk);
          expect(stored).toEqual(ids);

          const partial = await root.put(`${path()}/order`, { ids: ids.slice(1) });
          expect(partial.status).toBe(400);
          expect(partial.body.code).toBe('order_invalid');
          const foreign = await create(decl, b);
          const withForeign = await root.put(`${path()}/order`, { ids: [...ids, String(foreign.id)] });
          expect(withForeign.status).toBe(404);
          const viaB = await root.put(`${path(b)}/order`, { ids });
          expect(viaB.status).toBe(404);
          expect(await t.db(decl.table).whereIn(pk, ids).orderBy(decl.order!.field).pluck(pk)).toEqual(ids); // unchanged
          expect((await memberOfA.put(`${path()}/order`, { ids })).status).toBe(can('member', decl.group, 'update') ? 200 : 403);
        });
      }
    });
  }

  for (const decl of SINGLETONS) {
    describe(`${decl.name} (one per account)`, () => {
      const path = (account = a) => accountPath(account, decl);
      it('GET answers defaults, PUT stores, secrets are write-only, other roles and accounts are refused', async () => {
        const fresh = await root.get(path());
        expect(fresh.status).toBe(200);
        const body: Row = {};
        for (const [field, meta] of fieldsOf(decl)) {
          if (meta.readOnly) continue;
          if (meta.kind === 'number') body[field] = meta.min ?? 1;
          else if (meta.kind === 'boolean') body[field] = true;
          else if (meta.kind === 'url') body[field] = 'https://example.com/x';
          // The account's time zone is checked against the zones Intl knows.
          else if (field === 'ls_timezone') body[field] = 'Europe/Lisbon';
          else body[field] = `${field} value`;
        }
        const put = await root.put(path(), body);
        expect(put.status, JSON.stringify(put.body)).toBe(200);
        const got = await root.get(path());
        for (const [field, meta] of fieldsOf(decl)) {
          if (meta.kind === 'secret') {
            expect(got.body).not.toHaveProperty(field);
            expect(got.body[`${field}_set`]).toBe(true);
          } else expect(got.body[field], field).toEqual(body[field]);
        }
        expect((await t.client().get(path())).status).toBe(401);
        expect((await root.put(path(), body, { csrf: false })).status).toBe(403);
        expect((await memberOfA.put(path(), body)).status).toBe(can('member', decl.group, 'update') ? 200 : 403);
        const outsider = await t.signedIn('member');
        expect((await outsider.get(path())).status).toBe(404);
        const bad = await root.put(path(), { [fieldsOf(decl).find(([, m]) => m.kind === 'number')?.[0] ?? 'x']: 'many' });
        expect(bad.status).toBe(400);
        expect((await root.get(path())).body).toEqual(got.body);
      });
    });
  }
});
