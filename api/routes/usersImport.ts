import fs from 'node:fs';
import path from 'node:path';
import express, { Router } from 'express';
import multer from 'multer';
import { ctx } from '../context.js';
import { ApiError } from '../errors.js';
import { requireUser } from '../middleware/auth.js';
import { multipartError } from '../middleware/body.js';
import { importUsers, parseUsersCsv } from '../services/usersImport.js';
import { canImportUsers } from '../../resources/permissions.js';

/**
 * POST /users/import/csv (root only: entry_users create + the root role itself, spec 6).
 * Accepts a multipart upload (field "file" or "csv", .csv), a text/csv body, or JSON {csv: "..."}.
 */
export function importRouter(): Router {
  const router = Router();
  const onlyRoot = async (req: express.Request, _res: express.Response, next: express.NextFunction) =>
    next(canImportUsers(req.user?.u_role, await ctx(req).permissions.current()) ? undefined : new ApiError(403, 'forbidden', 'Only a root user can import users'));

  router.post(
    '/csv',
    requireUser,
    onlyRoot,
    (req, res, next) => {
      const max = ctx(req).config.csvMaxBytes;
      if (req.is('multipart/form-data')) {
        const dir = path.join(ctx(req).config.dataDir, 'tmp');
        fs.mkdirSync(dir, { recursive: true });
        const upload = multer({
          storage: multer.diskStorage({ destination: dir }),
          // One file or one csv field; a handful of stray fields is tolerated, a flood of parts is not.
          limits: { fileSize: max, files: 1, fieldSize: max, fields: 10, parts: 12, fieldNameSize: 100 },
          fileFilter: (_r, file, cb) => {
            if (!/\.csv$/i.test(file.originalname)) cb(new ApiError(400, 'invalid_file_type', 'Please choose a .csv file'));
            else cb(null, true);
          },
        }).fields([
          { name: 'file', maxCount: 1 },
          { name: 'csv', maxCount: 1 },
        ]);
        return upload(req, res, (err?: unknown) => {
          if ((err as { code?: string })?.code === 'LIMIT_FILE_SIZE')
            return next(new ApiError(413, 'file_too_large', `The file is larger than ${Math.round(max / 1024 / 1024)} MB`));
          next(multipartError(err) as Error | undefined);
        });
      }
      if (req.is('text/*')) return express.text({ limit: max, type: 'text/*' })(req, res, next);
      next(); // JSON {csv} was read by the API's own parser (1 MB)
    },
    async (req, res) => {
      const files = (req.files ?? {}) as Record<string, Express.Multer.File[]>;
      const file = files.file?.[0] ?? files.csv?.[0];
      try {
        let input: { path: string } | { text: string };
        if (file) input = { path: file.path };
        else if (typeof req.body === 'string') input = { text: req.body };
        else if (typeof req.body?.csv === 'string') input = { text: req.body.csv };
        else throw new ApiError(400, 'validation_failed', 'Please choose a .csv file', { csv: 'error_required' });

        const result = await importUsers(ctx(req).db, await parseUsersCsv(input));
        if (result.missingColumns?.length)
          throw new ApiError(400, 'createuserscsv_missing_columns', `The file has no ${result.missingColumns.join(', ')} column`, { csv: 'error_csv_columns' });
        if (result.rows === 0) throw new ApiError(400, 'createuserscsv_empty', 'The file has no rows to import', { csv: 'error_csv_empty' });
        if (!result.ok) {
          const n = result.errors.length;
          throw new ApiError(400, result.errors[0].code, `${n} row${n === 1 ? '' : 's'} could not be imported; nothing was imported`, undefined, {
            errors: result.errors,
          });
        }
        res.json({ code: 'ok', rows: result.rows, created: result.created, memberships: result.memberships });
      } finally {
        if (file) fs.promises.rm(file.path, { force: true }).catch(() => undefined);
      }
    },
  );
  return router;
}
