import useMediaQuery from '@mui/material/useMediaQuery';
import { useOwnWidth } from '../layout/useOwnWidth';

/** The designer's own width from which it shows three columns, and the list beside tabs (below: tabs only). */
export const WIDE_FROM = 960;
export const MEDIUM_FROM = 560;

/** The layout follows the room the designer has (a console page has its menu beside it), else the window's width. */
export function useDesignerLayout() {
  const [ownWidth, rootRef] = useOwnWidth();
  const wideWindow = useMediaQuery('(min-width:1200px)');
  const mediumWindow = useMediaQuery('(min-width:768px)');
  const wide = ownWidth !== undefined ? ownWidth >= WIDE_FROM : wideWindow;
  const medium = ownWidth !== undefined ? ownWidth >= MEDIUM_FROM : mediumWindow;
  return { rootRef, wide, medium };
}
