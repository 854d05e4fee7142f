import type { Knex } from 'knex';
import type { AppContext } from '../context.js';
import { ApiError, notFound } from '../errors.js';
import { extensionOf, fileUrl, typeForExtension, type SignedUpload } from '../../resources/files.js';
import type { Folder } from '../../resources/folders.js';
import { objectKey, newFilesPath } from './keys.js';
import { contentMatches, detectType, SNIFF_BYTES } from './fileTypes.js';
import { storageOf } from './index.js';

/** The media library's work (spec point 7): folders, signed uploads, registering and deleting files. */

type Row = Record<string, unknown>;

/** Signed uploads not registered this long after their URL expired are swept (row and any bytes). */
export const SWEEP_GRACE_MS = 60 * 60 * 1000;
const SWEEP_BATCH = 25;

const FOLDER_COLUMNS = ['fo_id', 'fo_title', 'fo_parentid', 'fo_created_at', 'fo_updated_at'];
const FILE_COLUMNS = ['fs_id', 'fs_folderid', 'fs_filename', 'fs_type', 'fs_path', 'fs_extension', 'fs_size', 'fs_created_at'];

export function serializeFolder(row: Row): Row {
  return { ...row, id: row.fo_id };
}

export function serializeFile(row: Row): Row {
  return { ...row, fs_size: Number(row.fs_size), id: row.fs_id, url: fileUrl(row as { fs_path: string; fs_id: string }) };
}

/** null = the root level. Both the folder list and the file list order by name, case-insensitively. */
export async function listFolders(db: Knex, parentId: string | null): Promise<Row[]> {
  const q = db('folders').select(FOLDER_COLUMNS);
  if (parentId) q.where('fo_parentid', parentId);
  else q.whereNull('fo_parentid');
  const rows = await q.orderByRaw('lower(fo_title), fo_id');
  return rows.map(serializeFolder);
}

export async function findFolder(db: Knex, id: string): Promise<Folder | undefined> {
  return db('folders').where('fo_id', id).first(FOLDER_COLUMNS);
}

export async function requireFolder(db: Knex, id: string): Promise<Folder> {
  const folder = await findFolder(db, id);
  if (!folder) throw notFound('Folder not found');
  return folder;
}

/** The folder and its ancestors, root first (the breadcrumb). */
export async function folderChain(db: Knex, id: string): Promise<Row[]> {
  const { rows } = await db.raw(
    `with recursive chain as (
       select fo_id, fo_title, fo_parentid, fo_created_at, fo_updated_at, 0 as depth from folders where fo_id = ?
       union all
       select f.fo_id, f.fo_title, f.fo_parentid, f.fo_created_at, f.fo_updated_at, c.depth + 1
         from folders f join chain c on f.fo_id = c.fo_parentid where c.depth < 10000
     ) select fo_id, fo_title, fo_parentid, fo_created_at, fo_updated_at from chain order by depth desc`,
    [id],
  );
  return (rows as Row[]).map(serializeFolder);
}

function badField(field: string, key: string, message: string): ApiError {
  return new ApiError(400, 'validation_failed', message, { [field]: key });
}

async function assertParent(db: Knex, parentId: string | null): Promise<void> {
  if (parentId && !(await findFolder(db, parentId))) throw badField('fo_parentid', 'error_folder_not_found', 'The folder does not exist');
}

export async function createFolder(db: Knex, input: { fo_title: string; fo_parentid: string | null }): Promise<Row> {
  await assertParent(db, input.fo_parentid);
  const [row] = await db('folders').insert(input).returning(FOLDER_COLUMNS);
  return serializeFolder(row);
}

/** Rename and/or move. A folder cannot move into itself or anything below it (409 folder_move_cycle). */
export async function updateFolder(db: Knex, input: { fo_id: string; fo_title?: string; fo_parentid?: string | null }): Promise<Row> {
  return db.transaction(async (trx) => {
    // Moves are serialised, so two concurrent moves cannot build a cycle between them.
    if (input.fo_parentid !== undefined) await trx.raw('select pg_advisory_xact_lock(?)', [FOLDER_TREE_LOCK]);
    await requireFolder(trx, input.fo_id);
    const change: Row = {};
    if (input.fo_title !== undefined) change.fo_title = input.fo_title;
    if (input.fo_parentid !== undefined) {
      if (input.fo_parentid) {
        await assertParent(trx, input.fo_parentid);
        const chain = await folderChain(trx, input.fo_parentid);
        if (chain.some((f) => f.fo_id === input.fo_id)) {
          throw new ApiError(409, 'folder_move_cycle', 'A folder cannot be moved into itself or one of its subfolders', {
            fo_parentid: 'error_folder_move_cycle',
          });
        }
      }
      change.fo_parentid = input.fo_parentid;
    }
    const [row] = await trx('folders')
      .where('fo_id', input.fo_id)
      .update({ ...change, fo_updated_at: trx.fn.now() })
      .returning(FOLDER_COLUMNS);
    return serializeFolder(row);
  });
}

const FOLDER_TREE_LOCK = 0x4c53_464f; // "LSFO"

/** Only an empty folder (no subfolders, no files) is deleted; otherwise 409 folder_not_empty. */
export async function deleteFolder(db: Knex, id: string): Promise<Row> {
  return db.transaction(async (trx) => {
    await trx.raw('select pg_advisory_xact_lock(?)', [FOLDER_TREE_LOCK]);
    const folder = await requireFolder(trx, id);
    const child = await trx('folders').where('fo_parentid', id).first('fo_id');
    const file = await trx('files').where('fs_folderid', id).first('fs_id');
    if (child || file) throw new ApiError(409, 'folder_not_empty', 'Only an empty folder can be deleted: move or delete its folders and files first');
    await trx('folders').where('fo_id', id).del();
    return serializeFolder(folder as unknown as Row);
  });
}

export async function listFiles(db: Knex, folderId: string | null): Promise<Row[]> {
  const q = db('files').select(FILE_COLUMNS);
  if (folderId) q.where('fs_folderid', folderId);
  else q.whereNull('fs_folderid');
  const rows = await q.orderByRaw('lower(fs_filename), fs_id');
  return rows.map(serializeFile);
}

export async function findFile(db: Knex, id: string): Promise<Row | undefined> {
  return db('files').where('fs_id', id).first(FILE_COLUMNS);
}

/**
 * POST /storage/sign: one signed PUT URL per client-generated id, all for the same destination folder. Re-signing an id
 * that is still pending (a retry) keeps its path; an id that is already a registered file is refused (409).
 */
export async function signUploads(
  context: AppContext,
  input: { ids: string[]; destination: string | null },
  userId: string,
): Promise<(SignedUpload & { expires_at: string; max_bytes: number })[]> {
  const { db, config } = context;
  const storage = storageOf(context);
  if (input.destination && !(await findFolder(db, input.destination))) {
    throw badField('destination', 'error_folder_not_found', 'The folder does not exist');
  }
  const taken = await db('files').whereIn('fs_id', input.ids).pluck('fs_id');
  if (taken.length) throw new ApiError(409, 'file_already_exists', 'A file with this id already exists', undefined, { ids: taken });
  await sweepUploads(context);

  const ttl = config.storage.signedUrlTtlSeconds;
  const expiresAt = new Date(Date.now() + ttl * 1000);
  const path = newFilesPath();
  const rows: { su_id: string; su_path: string }[] = await db('storage_uploads')
    .insert(input.ids.map((id) => ({ su_id: id, su_path: path, su_folderid: input.destination, su_userid: userId, su_expires_at: expiresAt })))
    .onConflict('su_id')
    .merge(['su_folderid', 'su_userid', 'su_expires_at'])
    .returning(['su_id', 'su_path']);
  const pathOf = new Map(rows.map((r) => [r.su_id, r.su_path]));
  return Promise.all(
    input.ids.map(async (id) => {
      const p = pathOf.get(id)!;
      const url = await storage.signUpload(objectKey(p, id), { maxBytes: config.storage.maxFileBytes, ttlSeconds: ttl });
      return { id, url, path: p, expires_at: expiresAt.toISOString(), max_bytes: config.storage.maxFileBytes };
    }),
  );
}

export interface RegisterInput {
  fs_id: string;
  fs_folderid: string | null;
  fs_filename: string;
  fs_type: string;
  fs_path: string;
}

/**
 * POST /storage/files: records an uploaded file. It must match a signed upload (same id, path and destination) whose
 * bytes arrived; the size limit and the type (extension → allow-list → first bytes) are checked here for both drivers,
 * and bytes that fail a check are deleted, so nothing refused stays in storage.
 */
export async function registerFile(context: AppContext, input: RegisterInput, userId: string): Promise<Row> {
  const { db, config } = context;
  const storage = storageOf(context);
  const pending = await db('storage_uploads').where('su_id', input.fs_id).first();
  if (!pending) {
    if (await findFile(db, input.fs_id)) throw new ApiError(409, 'file_already_exists', 'A file with this id already exists');
    throw badField('fs_id', 'error_upload_not_found', 'No upload for this file was signed, or it was not completed');
  }
  if (pending.su_path !== input.fs_path) throw badField('fs_path', 'error_upload_mismatch', 'This does not match the signed upload');
  if ((pending.su_folderid ?? null) !== input.fs_folderid) {
    throw badField('fs_folderid', 'error_upload_mismatch', 'The folder is not the one the upload was signed for');
  }
  if (input.fs_folderid && !(await findFolder(db, input.fs_folderid))) {
    throw badField('fs_folderid', 'error_folder_not_found', 'The folder does not exist');
  }

  const key = objectKey(input.fs_path, input.fs_id);
  const info = await storage.stat(key);
  if (!info) throw badField('fs_id', 'error_upload_not_found', 'No upload for this file was signed, or it was not completed');
  const discard = async () => {
    await storage.remove(key);
    await db('storage_uploads').where('su_id', input.fs_id).del();
  };
  if (info.size > config.storage.maxFileBytes) {
    await discard();
    throw new ApiError(413, 'file_too_large', 'The file is too large');
  }
  if (info.size === 0) {
    await discard();
    throw new ApiError(400, 'file_empty', 'The file is empty');
  }
  const extension = extensionOf(input.fs_filename);
  const type = typeForExtension(extension)!; // the schema allowed the extension
  const head = await storage.readHead(key, SNIFF_BYTES);
  if (!contentMatches(await detectType(head, info.size <= SNIFF_BYTES), type)) {
    await discard();
    throw new ApiError(400, 'file_content_mismatch', 'The contents of the file do not match its type', { fs_type: 'error_file_content_mismatch' });
  }

  return db.transaction(async (trx) => {
    // returning(): knex-pglite answers a bare del() inside a transaction with a result object (always truthy).
    const claimed = await trx('storage_uploads').where('su_id', input.fs_id).del().returning('su_id');
    if (!claimed.length) throw new ApiError(409, 'file_already_exists', 'A file with this id already exists');
    const [row] = await trx('files')
      .insert({
        fs_id: input.fs_id,
        fs_folderid: input.fs_folderid,
        fs_filename: input.fs_filename,
        fs_type: type.mime,
        fs_path: input.fs_path,
        fs_extension: extension,
        fs_size: info.size,
        fs_created_by: userId,
      })
      .returning(FILE_COLUMNS);
    return serializeFile(row);
  });
}

/** Deletes the record and the stored bytes together: if the bytes cannot be removed, the record stays. */
export async function deleteFile(context: AppContext, id: string): Promise<Row> {
  const storage = storageOf(context);
  return context.db.transaction(async (trx) => {
    const row = await trx('files').where('fs_id', id).forUpdate().first(FILE_COLUMNS);
    if (!row) throw notFound('File not found');
    await trx('files').where('fs_id', id).del();
    await storage.remove(objectKey(row.fs_path, row.fs_id));
    return serializeFile(row);
  });
}

/** Removes signed uploads that were never registered (and whatever bytes they left), a batch at a time. */
export async function sweepUploads(context: AppContext): Promise<number> {
  const { db } = context;
  const storage = storageOf(context);
  const stale: { su_id: string; su_path: string }[] = await db('storage_uploads')
    .where('su_expires_at', '<', new Date(Date.now() - SWEEP_GRACE_MS))
    .limit(SWEEP_BATCH)
    .select('su_id', 'su_path');
  let swept = 0;
  for (const s of stale) {
    // Claim the row first: a registration racing with the sweep either wins (and keeps its bytes) or finds no row.
    const claimed = await db('storage_uploads').where('su_id', s.su_id).del().returning('su_id');
    if (!claimed.length) continue;
    await storage.remove(objectKey(s.su_path, s.su_id)).catch((e) => context.log(`storage sweep: ${s.su_id}: ${e}`));
    swept++;
  }
  return swept;
}
