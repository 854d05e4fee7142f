import { useMemo, type ReactNode } from 'react';
import type { FormElementSpec } from '../../../resources/answers';
import { asString, asStrings, indexList, parseDate } from './model';
import type { RendererTexts } from './texts';

/** One answer as text: list values by their titles (a value no longer in the list as it was stored), dates long. */
export function ReadOnlyAnswer({ el, value, texts, locale }: { el: FormElementSpec; value: unknown; texts: RendererTexts; locale: string }) {
  const index = useMemo(() => indexList(el.items), [el.items]);
  const titleOf = (v: string) => {
    const i = index.byValue.get(v);
    return i === undefined ? v : index.entries[i].title;
  };
  let content: ReactNode;
  switch (el.fe_type) {
    case 'checkbox':
    case 'toggle':
      content = typeof value === 'boolean' ? (value ? texts.yes : texts.no) : null;
      break;
    case 'slider':
      content = typeof value === 'number' && Number.isFinite(value) ? value.toLocaleString(locale) : null;
      break;
    case 'date_selector_days': {
      const format = new Intl.DateTimeFormat(locale, { timeZone: 'UTC', weekday: 'short', day: 'numeric', month: 'long', year: 'numeric' });
      const days = asStrings(value).filter((d) => /^\d{4}-\d{2}-\d{2}$/.test(d));
      content = days.length ? <List items={days.map((d) => format.format(parseDate(d)))} /> : null;
      break;
    }
    case 'choice_chips_multiple':
    case 'checkbox_tree': {
      const values = asStrings(value);
      content = values.length ? <List items={values.map(titleOf)} /> : null;
      break;
    }
    case 'text':
    case 'textarea': {
      const text = asString(value);
      content = text.trim() ? <span className="ls-form-answer-text">{text}</span> : null;
      break;
    }
    default: {
      const v = asString(value);
      content = v ? titleOf(v) : null;
    }
  }
  return <>{content ?? <span className="ls-form-answer-empty">{texts.noAnswer}</span>}</>;
}

function List({ items }: { items: string[] }) {
  return (
    <ul className="ls-form-answer-list">
      {items.map((t, i) => (
        <li key={i}>{t}</li>
      ))}
    </ul>
  );
}
