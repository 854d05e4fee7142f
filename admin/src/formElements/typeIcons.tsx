import type SvgIcon from '@mui/material/SvgIcon';
import AccountTreeIcon from '@mui/icons-material/AccountTree';
import AccountTreeOutlinedIcon from '@mui/icons-material/AccountTreeOutlined';
import ArrowDropDownCircleIcon from '@mui/icons-material/ArrowDropDownCircle';
import CalendarMonthIcon from '@mui/icons-material/CalendarMonth';
import CheckBoxIcon from '@mui/icons-material/CheckBox';
import LibraryAddCheckIcon from '@mui/icons-material/LibraryAddCheck';
import LinearScaleIcon from '@mui/icons-material/LinearScale';
import ListAltIcon from '@mui/icons-material/ListAlt';
import NotesIcon from '@mui/icons-material/Notes';
import RadioButtonCheckedIcon from '@mui/icons-material/RadioButtonChecked';
import ShortTextIcon from '@mui/icons-material/ShortText';
import ToggleOnIcon from '@mui/icons-material/ToggleOn';
import type { ElementType } from '../../../resources/answers';

/** One icon per element type (the label is ls.form_designer.types.<type>). */
export const TYPE_ICONS: Record<ElementType, typeof SvgIcon> = {
  text: ShortTextIcon,
  textarea: NotesIcon,
  date_selector_days: CalendarMonthIcon,
  choice_chips_single: RadioButtonCheckedIcon,
  choice_chips_multiple: LibraryAddCheckIcon,
  checkbox: CheckBoxIcon,
  checkbox_tree: AccountTreeIcon,
  radio_tree: AccountTreeOutlinedIcon,
  selectbox: ArrowDropDownCircleIcon,
  toggle: ToggleOnIcon,
  slider: LinearScaleIcon,
  picker: ListAltIcon,
};
