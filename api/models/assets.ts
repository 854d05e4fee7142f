import { assetThumbUrl, assetUrl, assetKind } from '../../resources/assets.js';

type Row = Record<string, unknown>;

/** An asset as the API answers it: its URLs (carrying the version) and kind. */
export function serializeAsset(row: Row): Row {
  const out: Row = { ...row, as_size: Number(row.as_size) };
  out.url = assetUrl(row as { as_path: string; as_fileid: string; as_version: number });
  out.thumbnail_url = assetThumbUrl(row as { as_path: string; as_thumb_fileid: string | null });
  out.kind = assetKind(String(row.as_type));
  delete out.as_path;
  delete out.as_thumb_type;
  delete out.as_created_by;
  return out;
}
