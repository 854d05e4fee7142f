/** The shared form renderer: plain React, no react-admin or MUI (test/unit/rendererImports.test.ts keeps it so). */
export { FormRenderer, ELEMENT_COMPONENTS, type FormRendererProps } from './FormRenderer';
export { DEFAULT_TEXTS, rendererTexts, type RendererTexts } from './texts';
export { defaultAnswers, emptyAnswer, SEARCH_THRESHOLD, RENDER_CAP } from './model';
export type { AnswerByType, AnswerValue, Answers, ElementType, FormElementSpec, ListItemNode } from '../../../resources/answers';
