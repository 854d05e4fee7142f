import fs from 'node:fs';
import path from 'node:path';
import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import multer from 'multer';
import { ctx } from '../context.js';
import { ApiError, notFound } from '../errors.js';
import { requirePermission } from '../middleware/auth.js';
import { multipartError } from '../middleware/body.js';
import { scoped, accountOf } from '../models/scope.js';
import { CSV_BOM, csvLine } from '../services/csv.js';
import { importListItems, LIST_IMPORT_MAX_ROWS, parseListImport, type ImportFormat } from '../services/listImport.js';
import { isUuid } from '../../resources/fields.js';
import { lists } from '../../resources/lists.js';
import { buildListTree, walkListTree, type ListItemRow } from '../../resources/listItems.js';

const CSV_TYPES = ['text/csv', 'application/csv', 'text/comma-separated-values', 'application/vnd.ms-excel'];

/** The format of an uploaded file: by its extension, else by its type; undefined when it is neither. */
function fileFormat(file: Express.Multer.File): ImportFormat | undefined {
  if (/\.csv$/i.test(file.originalname)) return 'csv';
  if (/\.txt$/i.test(file.originalname)) return 'text';
  if (CSV_TYPES.includes(file.mimetype)) return 'csv';
  if (file.mimetype === 'text/plain') return 'text';
  return undefined;
}

const wrongType = () => new ApiError(400, 'invalid_file_type', 'Please choose a .csv or .txt file', { file: 'error_list_import_file_type' });

/** Reads the import's body: a multipart `file` (to a temporary file), or a text/csv or text/plain body. */
function importBody(req: Request, res: Response, next: NextFunction): void {
  const max = ctx(req).config.csvMaxBytes;
  if (req.is('multipart/form-data')) {
    const dir = path.join(ctx(req).config.dataDir, 'tmp');
    fs.mkdirSync(dir, { recursive: true });
    const upload = multer({
      storage: multer.diskStorage({ destination: dir }),
      limits: { fileSize: max, files: 1, fieldSize: 1024, fields: 10, parts: 12, fieldNameSize: 100 },
      fileFilter: (_r, file, cb) => (fileFormat(file) ? cb(null, true) : cb(wrongType())),
    }).single('file');
    upload(req, res, (err?: unknown) => {
      if ((err as { code?: string })?.code === 'LIMIT_FILE_SIZE') return next(new ApiError(413, 'file_too_large', `The file is larger than ${Math.round(max / 1024 / 1024)} MB`));
      next(multipartError(err) as Error | undefined);
    });
    return;
  }
  if (req.is('text/*') || req.is(CSV_TYPES)) {
    express.text({ limit: max, type: () => true })(req, res, next);
    return;
  }
  next();
}

/** The list of the route in the caller's account, or 404. */
async function listOf(req: Request): Promise<{ l_id: string; l_name: string }> {
  const id = String(req.params.id);
  if (!isUuid(id)) throw notFound();
  const list = await scoped(ctx(req).db, lists, accountOf(req)).where('l_id', id).first('l_id', 'l_name');
  if (!list) throw notFound();
  return list;
}

/** The list of the route with its items in order, in one query (the list joined to its items); 404 when none. */
async function listWithItems(req: Request): Promise<{ list: { l_id: string; l_name: string }; items: ListItemRow[] }> {
  const id = String(req.params.id);
  if (!isUuid(id)) throw notFound();
  const rows = await scoped(ctx(req).db, lists, accountOf(req))
    .where('lists.l_id', id)
    .leftJoin('list_items', (j) => j.on('list_items.li_listid', 'lists.l_id').andOn('list_items.li_accountid', 'lists.l_accountid'))
    .orderBy([{ column: 'li_order' }, { column: 'li_created_at' }, { column: 'li_id' }])
    .select('l_id', 'l_name', 'li_id', 'li_parentid', 'li_title', 'li_value');
  if (!rows.length) throw notFound();
  return { list: { l_id: rows[0].l_id, l_name: rows[0].l_name }, items: rows.filter((r: Partial<ListItemRow>) => r.li_id) };
}

/**
 * The list's own routes (account-console.md: lists):
 * - POST /lists/{id}/import: CSV (title, value, parent_value) or indented text, appended; all or nothing; every bad
 *   row listed. Needs account_lists create (it creates items, as one by one would).
 * - GET /lists/{id}/export.csv: title, value, parent_value; parents before their children, in order. Read bit.
 * - GET /lists/{id}/tree: the items nested, in order, for screens and the form renderer. Read bit.
 */
export function listsRoutes(router: Router): void {
  const group = lists.group;

  router.post('/:id/import', requirePermission(group, 'create'), importBody, async (req, res) => {
    const file = req.file;
    try {
      const list = await listOf(req);
      let text: string;
      let format: ImportFormat;
      if (file) {
        format = fileFormat(file)!;
        text = await fs.promises.readFile(file.path, 'utf8');
      } else if (typeof req.body === 'string') {
        format = req.is('text/plain') ? 'text' : 'csv';
        text = req.body;
      } else throw new ApiError(400, 'validation_failed', 'Send a .csv or .txt file', { file: 'error_required' });

      const parsed = parseListImport(text, format);
      if (parsed.rows.length > LIST_IMPORT_MAX_ROWS)
        throw new ApiError(400, 'list_import_too_many_rows', `A file may hold at most ${LIST_IMPORT_MAX_ROWS} items`, { file: 'error_list_import_too_many_rows' });
      const result = await importListItems(ctx(req).db, accountOf(req), list.l_id, parsed);
      if (!result) throw notFound();
      if (result.missingColumns?.length) throw new ApiError(400, 'list_import_missing_columns', 'The file has no title column', { file: 'error_list_import_columns' });
      if (result.rows === 0) throw new ApiError(400, 'list_import_empty', 'The file has no items to import', { file: 'error_list_import_empty' });
      if (!result.ok) {
        const n = result.errors.length;
        throw new ApiError(400, result.errors[0].code, `${n} row${n === 1 ? '' : 's'} could not be imported; nothing was imported`, undefined, { errors: result.errors });
      }
      res.json({ code: 'ok', rows: result.rows, created: result.created });
    } finally {
      if (file) fs.promises.rm(file.path, { force: true }).catch(() => undefined);
    }
  });

  router.get('/:id/export.csv', requirePermission(group, 'read'), async (req, res) => {
    const { list, items } = await listWithItems(req);
    const parts: string[] = [CSV_BOM, csvLine(['title', 'value', 'parent_value'])];
    walkListTree(buildListTree(items), (node, _depth, parent) => parts.push(csvLine([node.li_title, node.li_value, parent?.li_value ?? ''])));
    res.setHeader('Content-Type', 'text/csv; charset=utf-8');
    res.setHeader('Content-Disposition', `attachment; filename="${list.l_name}.csv"`);
    res.send(parts.join(''));
  });

  router.get('/:id/tree', requirePermission(group, 'read'), async (req, res) => {
    res.json(buildListTree((await listWithItems(req)).items));
  });
}
