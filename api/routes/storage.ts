import { Router, type Request } from 'express';
import { ctx } from '../context.js';
import { notFound, validate } from '../errors.js';
import { requirePermission, requireUser } from '../middleware/auth.js';
import { isUuid } from '../../resources/fields.js';
import { fileRegister, signRequest } from '../../resources/files.js';
import { folderCreate, folderUpdate } from '../../resources/folders.js';
import {
  createFolder,
  deleteFile,
  deleteFolder,
  findFile,
  folderChain,
  listFiles,
  listFolders,
  registerFile,
  requireFolder,
  serializeFile,
  signUploads,
  updateFolder,
} from '../storage/library.js';

const GROUP = 'entry_files';
const can = (perm: 'read' | 'create' | 'update' | 'delete') => requirePermission(GROUP, perm);

/** :id of a folder route: a folder's UUID, or "root" for the root level (null). Anything else is 404. */
async function folderParam(req: Request): Promise<string | null> {
  const id = String(req.params.id);
  if (id === 'root') return null;
  if (!isUuid(id)) throw notFound('Folder not found');
  return (await requireFolder(ctx(req).db, id.toLowerCase())).fo_id;
}

/**
 * /api/1/storage (spec point 7), gated by entry_files: read for lists, create for new folders and uploads, update
 * for rename/move, delete for deletes.
 */
export function storageRouter(): Router {
  const r = Router();
  r.use(requireUser);

  r.get('/folders', can('read'), async (req, res) => {
    res.json(await listFolders(ctx(req).db, null));
  });

  r.get('/folders/:id', can('read'), async (req, res) => {
    res.json(await listFolders(ctx(req).db, await folderParam(req)));
  });

  r.get('/folders/:id/parents', can('read'), async (req, res) => {
    const id = await folderParam(req);
    res.json(id ? await folderChain(ctx(req).db, id) : []);
  });

  r.get('/folders/:id/files', can('read'), async (req, res) => {
    res.json(await listFiles(ctx(req).db, await folderParam(req)));
  });

  r.post('/folders', can('create'), async (req, res) => {
    const input = validate(folderCreate, req.body);
    res.status(201).json(await createFolder(ctx(req).db, input));
  });

  r.put('/folders', can('update'), async (req, res) => {
    const input = validate(folderUpdate, req.body);
    res.json(await updateFolder(ctx(req).db, input));
  });

  r.delete('/folders/:id', can('delete'), async (req, res) => {
    const id = String(req.params.id);
    if (!isUuid(id)) throw notFound('Folder not found');
    res.json(await deleteFolder(ctx(req).db, id.toLowerCase()));
  });

  r.post('/sign', can('create'), async (req, res) => {
    const input = validate(signRequest, req.body);
    res.json(await signUploads(ctx(req), input, req.user!.u_id));
  });

  r.post('/files', can('create'), async (req, res) => {
    const input = validate(fileRegister, req.body);
    res.status(201).json(await registerFile(ctx(req), input, req.user!.u_id));
  });

  r.get('/files/:id', can('read'), async (req, res) => {
    const id = String(req.params.id);
    const row = isUuid(id) ? await findFile(ctx(req).db, id.toLowerCase()) : undefined;
    if (!row) throw notFound('File not found');
    res.json(serializeFile(row));
  });

  r.delete('/files/:id', can('delete'), async (req, res) => {
    const id = String(req.params.id);
    if (!isUuid(id)) throw notFound('File not found');
    res.json(await deleteFile(ctx(req), id.toLowerCase()));
  });

  return r;
}
