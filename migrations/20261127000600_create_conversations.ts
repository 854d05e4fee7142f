import type { Knex } from 'knex';
import { createAccountTable, enumCheck, prefixSearchIndex } from '../api/db/migrationHelpers.js';

/**
 * Conversations (platform-and-flows.md 6; resources/conversations.ts): a thread between the account and one lead, its
 * messages, and each member's read marker (what "unread" counts from).
 *
 * - conversations: cv_token_hash is the SHA-256 of the visitor's link token (never the token); the lead's purge takes
 *   its conversations with it (cascade), the trash hides them (the declaration's trashWith). One index serves the
 *   list (account, last message) and one a lead's threads.
 * - conversation_messages: cm_author is a member's user id, or null for the visitor. A user deleted later leaves
 *   their messages with a null author; cm_from_visitor keeps them apart from the visitor's.
 * - conversation_reads: (conversation, user) → last_read_at.
 */
export async function up(knex: Knex): Promise<void> {
  await createAccountTable(knex, 'conversations', 'cv', (t) => {
    t.uuid('cv_leadid').notNullable().references('ld_id').inTable('leads').onDelete('CASCADE');
    t.text('cv_subject').notNullable().defaultTo('');
    t.text('cv_status').notNullable().defaultTo('open');
    t.timestamp('cv_last_message_at', { useTz: true });
    t.text('cv_token_hash').notNullable().unique('conversations_token_hash_unique');
    enumCheck(t, 'conversations', 'cv_status', ['open', 'closed']);
    t.index(['cv_accountid', 'cv_last_message_at'], 'conversations_account_last_message');
    t.index(['cv_leadid'], 'conversations_lead');
  });
  await prefixSearchIndex(knex, 'conversations', 'cv_subject', 'cv_accountid');
  await knex.schema.createTable('conversation_messages', (t) => {
    t.uuid('cm_id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('cm_conversationid').notNullable().references('cv_id').inTable('conversations').onDelete('CASCADE');
    t.uuid('cm_author').references('u_id').inTable('users').onDelete('SET NULL');
    t.boolean('cm_from_visitor').notNullable().defaultTo(false);
    t.text('cm_body').notNullable();
    t.timestamp('cm_created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['cm_conversationid', 'cm_created_at'], 'conversation_messages_thread');
    t.index(['cm_author'], 'conversation_messages_author');
  });
  await knex.schema.createTable('conversation_reads', (t) => {
    t.uuid('cr_conversationid').notNullable().references('cv_id').inTable('conversations').onDelete('CASCADE');
    t.uuid('cr_userid').notNullable().references('u_id').inTable('users').onDelete('CASCADE');
    t.timestamp('cr_last_read_at', { useTz: true }).notNullable();
    t.primary(['cr_conversationid', 'cr_userid']);
    t.index(['cr_userid'], 'conversation_reads_user');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('conversation_reads');
  await knex.schema.dropTable('conversation_messages');
  await knex.schema.dropTable('conversations');
}
