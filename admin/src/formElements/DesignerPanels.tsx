import type { ReactNode } from 'react';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import type { T } from './ElementList';

export type Panel = 'elements' | 'element' | 'preview';

/**
 * The three panels by the room there is. Wide (960 px of its own, or a 1200 px window): three columns; medium (560 px,
 * or a 768 px window): the list beside the element and the preview as tabs; below: tabs. `panel` is the tab asked for.
 */
export function DesignerPanels({
  wide,
  medium,
  panel,
  onPanel,
  t,
  list,
  editor,
  preview,
}: {
  wide: boolean;
  medium: boolean;
  panel: Panel;
  onPanel: (panel: Panel) => void;
  t: T;
  list: ReactNode;
  editor: ReactNode;
  preview: ReactNode;
}) {
  const tabs: Panel[] = wide ? [] : medium ? ['element', 'preview'] : ['elements', 'element', 'preview'];
  const shown: Panel = tabs.length && !tabs.includes(panel) ? tabs[0] : panel;
  const tabPanel = (name: Panel, content: ReactNode) =>
    tabs.includes(name) ? (
      <div key={name} role="tabpanel" id={`fd-tabpanel-${name}`} aria-labelledby={`fd-tab-${name}`} hidden={shown !== name} className="fd-tabpanel">
        {content}
      </div>
    ) : (
      <div key={name} className="fd-column">
        {content}
      </div>
    );
  return (
    <>
      {tabs.length ? (
        <Tabs value={shown} onChange={(_, value: Panel) => onPanel(value)} variant="fullWidth" className="fd-tabs" aria-label={t('elements')}>
          {tabs.map((name) => (
            <Tab
              key={name}
              value={name}
              id={`fd-tab-${name}`}
              aria-controls={`fd-tabpanel-${name}`}
              label={t(name === 'elements' ? 'elements' : name === 'element' ? 'element' : 'preview')}
            />
          ))}
        </Tabs>
      ) : null}
      <div className="fd-grid">
        {wide || medium ? <div className="fd-column">{list}</div> : tabPanel('elements', list)}
        {medium && !wide ? (
          <div className="fd-column">
            {tabPanel('element', editor)}
            {tabPanel('preview', preview)}
          </div>
        ) : (
          <>
            {tabPanel('element', editor)}
            {tabPanel('preview', preview)}
          </>
        )}
      </div>
    </>
  );
}
