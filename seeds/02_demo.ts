import type { Knex } from 'knex';
import { hashPassword } from '../api/services/passwords.js';

/** Demo data (npm run db:seed:demo): 5 accounts, 300 users, memberships. Safe to run twice. */
const ACCOUNTS = [
  { a_name: 'Acme Events', a_email_domain: 'acme-events.example' },
  { a_name: 'Blue Harbor Expo', a_email_domain: 'blueharbor.example' },
  { a_name: 'Northwind Trade Fairs', a_email_domain: null },
  { a_name: 'Summit Conferences', a_email_domain: 'summit.example' },
  { a_name: 'Tech Booth Co', a_email_domain: null },
];
const FIRST = ['Ava', 'Ben', 'Chloe', 'Daan', 'Emma', 'Finn', 'Grace', 'Hugo', 'Isla', 'Jules', 'Lars', 'Mila', 'Noah', 'Olivia', 'Pim', 'Ruby', 'Sem', 'Tess', 'Vera', 'Wout'];
const LAST = ['Jansen', 'de Vries', 'Smith', 'Bakker', 'Visser', 'Brown', 'Meijer', 'Mulder', 'Wilson', 'de Boer', 'Peters', 'Taylor', 'Hendriks', 'Dekker', 'Clark'];

export const DEMO_PASSWORD = 'demo-password';

export async function seed(knex: Knex): Promise<void> {
  const existing = await knex('accounts')
    .whereIn(
      'a_name',
      ACCOUNTS.map((a) => a.a_name),
    )
    .count({ n: '*' })
    .first();
  if (Number(existing?.n ?? 0) > 0) return;
  const hash = await hashPassword(DEMO_PASSWORD); // one hash for every demo user: no hash per row
  await knex.transaction(async (trx) => {
    const accounts = await trx('accounts').insert(ACCOUNTS).returning(['a_id', 'a_email_domain']);
    const users = Array.from({ length: 300 }, (_, i) => {
      const first = FIRST[i % FIRST.length];
      const last = LAST[(i * 7) % LAST.length];
      const account = accounts[i % accounts.length];
      const domain = account.a_email_domain ?? 'example.com';
      return {
        u_first_name: first,
        u_last_name: last,
        u_email: `${first}.${last}.${i}@${domain}`.toLowerCase().replace(/\s+/g, ''),
        u_role: i === 0 ? 'superadmin' : 'member',
        u_is_verified: i % 10 !== 9,
        u_is_enabled: i % 25 !== 24,
        u_password: hash,
      };
    });
    const inserted = await trx('users').insert(users).returning(['u_id']);
    const members = inserted.map((u, i) => ({
      au_userid: u.u_id,
      au_accountid: accounts[i % accounts.length].a_id,
      au_role: i % 50 === 0 ? 'superadmin' : 'member',
    }));
    await trx('account_users').insert(members);
  });
}
