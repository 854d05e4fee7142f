import UploadIcon from '@mui/icons-material/CloudUploadOutlined';
import { Button, LinkBase, useCreatePath, useTranslate } from 'react-admin';
import type { ResourceDeclaration } from '../../../resources/types';
import { GeneratedList } from '../generated/GeneratedList';
import { useResourceAccess } from '../generated/access';
import { AssetTitleCell, KindFilter, SizeCell, TypeCell } from './assetCells';

const CELLS = { as_title: AssetTitleCell, as_size: SizeCell, as_type: TypeCell };
const FILTERS = { as_type: KindFilter };

/** The list's create button: assets are made by uploading files. */
function UploadButton() {
  const translate = useTranslate();
  const to = `${useCreatePath()({ type: 'list', resource: 'assets' })}/new`;
  return (
    <Button component={LinkBase} to={to} label={translate('ls.assets.upload.button')} variant="contained" data-testid="create-button">
      <UploadIcon />
    </Button>
  );
}

/**
 * /console/{a}/assets: the generated list with each asset's thumbnail beside its title (a video's poster, an image
 * without one shown small, else the kind's icon), sizes in bytes, the type as its kind, the search over title and name
 * and a kind filter. "Upload" (with the create bit) opens the upload page.
 */
export default function AssetList({ decl }: { decl: ResourceDeclaration }) {
  const { canCreate } = useResourceAccess(decl.name);
  return <GeneratedList decl={decl} cells={CELLS} filterInputs={FILTERS} createAction={canCreate ? <UploadButton /> : null} phoneColumns={['as_type', 'as_size']} />;
}
