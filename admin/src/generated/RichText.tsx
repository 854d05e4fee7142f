import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup, { type ToggleButtonGroupProps } from '@mui/material/ToggleButtonGroup';
import FormatBold from '@mui/icons-material/FormatBold';
import FormatItalic from '@mui/icons-material/FormatItalic';
import FormatStrikethrough from '@mui/icons-material/FormatStrikethrough';
import FormatUnderlined from '@mui/icons-material/FormatUnderlined';
import type { Editor, EditorOptions } from '@tiptap/react';
import { useEditorState } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { ClearButtons, LinkButtons, ListButtons, QuoteButtons, RichTextInput, RichTextInputToolbar, useTiptapEditor } from 'ra-input-rich-text';
import { useTranslate } from 'react-admin';
import { isRichTextHref } from '../../../resources/richtext';
import type { FieldInputProps } from './kinds';

/**
 * The richtext kind's input: react-admin's Tiptap editor with only what the API keeps (resources/richtext.ts): paragraphs
 * and headings 2 and 3, bold, italic, underline, strike, links (http(s) and mailto), lists and quotes. Pasted markup
 * beyond that is dropped by the editor's schema already; the API sanitises whatever arrives.
 */
const EDITOR_OPTIONS: Partial<EditorOptions> = {
  extensions: [
    StarterKit.configure({
      heading: { levels: [2, 3] },
      code: false,
      codeBlock: false,
      horizontalRule: false,
      link: {
        openOnClick: false,
        autolink: true,
        defaultProtocol: 'https',
        isAllowedUri: (url) => isRichTextHref(url),
        // What the server stores: rel always, a new tab for the web (api/crud/richtext.ts).
        HTMLAttributes: { rel: 'noopener noreferrer', target: null },
      },
    }),
  ],
};

type Block = 'paragraph' | 'h2' | 'h3';
const BLOCKS: Block[] = ['paragraph', 'h2', 'h3'];
const blockOf = (editor: Editor | null): Block | null =>
  !editor ? null : editor.isActive('heading', { level: 2 }) ? 'h2' : editor.isActive('heading', { level: 3 }) ? 'h3' : editor.isActive('paragraph') ? 'paragraph' : null;

/** Paragraph, heading 2, heading 3 (ra-input-rich-text's own select offers headings 1 to 6). */
function BlockButtons(props: ToggleButtonGroupProps) {
  const editor = useTiptapEditor();
  const translate = useTranslate();
  const value = useEditorState({ editor, selector: ({ editor }) => blockOf(editor) });
  const choose = (_: unknown, block: Block | null) => {
    if (!editor || !block) return;
    const chain = editor.chain().focus();
    (block === 'paragraph' ? chain.setParagraph() : chain.setHeading({ level: block === 'h2' ? 2 : 3 })).run();
  };
  return (
    <ToggleButtonGroup {...props} exclusive value={value} onChange={choose} disabled={!editor?.isEditable}>
      {BLOCKS.map((block) => {
        const label = translate(`ls.generated.richtext.${block}`);
        return (
          <ToggleButton key={block} value={block} aria-label={label} title={label} sx={{ fontSize: '0.8125rem', fontWeight: 600, lineHeight: 1.25, minWidth: 32 }}>
            {block === 'paragraph' ? '¶' : block.toUpperCase()}
          </ToggleButton>
        );
      })}
    </ToggleButtonGroup>
  );
}

const MARKS = [
  { mark: 'bold', Icon: FormatBold, toggle: (e: Editor) => e.chain().focus().toggleBold().run() },
  { mark: 'italic', Icon: FormatItalic, toggle: (e: Editor) => e.chain().focus().toggleItalic().run() },
  { mark: 'underline', Icon: FormatUnderlined, toggle: (e: Editor) => e.chain().focus().toggleUnderline().run() },
  { mark: 'strike', Icon: FormatStrikethrough, toggle: (e: Editor) => e.chain().focus().toggleStrike().run() },
] as const;

/** Bold, italic, underline, strike (ra-input-rich-text's own group adds inline code, which is not kept). */
function MarkButtons(props: ToggleButtonGroupProps) {
  const editor = useTiptapEditor();
  const translate = useTranslate();
  const active = useEditorState({ editor, selector: ({ editor }) => (editor ? MARKS.filter((m) => editor.isActive(m.mark)).map((m) => m.mark) : []) });
  return (
    <ToggleButtonGroup {...props} value={active} disabled={!editor?.isEditable}>
      {MARKS.map(({ mark, Icon, toggle }) => {
        const label = translate(`ls.generated.richtext.${mark}`);
        return (
          <ToggleButton key={mark} value={mark} aria-label={label} title={label} onClick={() => editor && toggle(editor)}>
            <Icon fontSize="inherit" />
          </ToggleButton>
        );
      })}
    </ToggleButtonGroup>
  );
}

const TOOLBAR = (
  <RichTextInputToolbar size="small">
    <BlockButtons size="small" />
    <MarkButtons size="small" />
    <ListButtons size="small" />
    <LinkButtons size="small" />
    <QuoteButtons size="small" />
    <ClearButtons size="small" />
  </RichTextInputToolbar>
);

export function RichTextField({ source, label, disabled, helperText, meta }: FieldInputProps) {
  return (
    <RichTextInput
      source={source}
      label={label}
      disabled={disabled}
      helperText={helperText}
      isRequired={meta.required}
      editorOptions={EDITOR_OPTIONS}
      toolbar={TOOLBAR}
      fullWidth
    />
  );
}
