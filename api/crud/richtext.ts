import sanitizeHtml from 'sanitize-html';
import { isRichTextHref, RICHTEXT_LINK_SCHEMES, RICHTEXT_TAGS, richTextMax, utf8Bytes } from '../../resources/richtext.js';
import type { ResourceDeclaration } from '../../resources/types.js';

type Row = Record<string, unknown>;

/**
 * sanitize-html's options for the allow-list: every other tag is removed and its text kept, except elements whose
 * content is no text a reader wrote (scripts, styles, frames, forms' option lists, SVG and MathML), which go whole;
 * no attribute survives but a link's href, and that only with http(s) or mailto.
 */
const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [...RICHTEXT_TAGS],
  allowedAttributes: { a: ['href', 'rel', 'target'] },
  allowedSchemes: [...RICHTEXT_LINK_SCHEMES],
  allowedSchemesAppliedToAttributes: ['href'],
  allowProtocolRelative: false,
  allowedStyles: {},
  disallowedTagsMode: 'discard',
  nonTextTags: [
    'script',
    'style',
    'textarea',
    'option',
    'select',
    'noscript',
    'iframe',
    'frame',
    'object',
    'embed',
    'template',
    'title',
    'svg',
    'math',
    'noembed',
    'noframes',
    'xmp',
  ],
  transformTags: {
    // rel and target are the server's, never the sender's. A link leaves the page in a new tab (a visitor halfway
    // through the registration form keeps it); mailto opens the mail program, no tab. The tag name never changes here:
    // sanitize-html closes a renamed tag by the wrong name when links are mixed.
    a: (tagName, attribs) => {
      const href = (attribs.href ?? '').trim();
      const out: sanitizeHtml.Attributes = {};
      if (isRichTextHref(href)) {
        out.href = href;
        out.rel = 'noopener noreferrer';
        if (!/^mailto:/i.test(href)) out.target = '_blank';
      }
      return { tagName, attribs: out };
    },
  },
};

const BLANK = /^(?:\s|&nbsp;|<br \/>)*$/;

/**
 * The sanitised HTML without its empty paragraphs at the end: the editor keeps one after a closing heading, list or
 * quote to type on in, which is not part of the text. Index by index from the end, so it stays linear in the length.
 */
function withoutEmptyTail(html: string): string {
  let end = html.length;
  for (;;) {
    while (end > 0 && /\s/.test(html[end - 1])) end--;
    if (end < 7 || !html.startsWith('</p>', end - 4)) break;
    const start = html.lastIndexOf('<p>', end - 4);
    if (start < 0 || !BLANK.test(html.slice(start + 3, end - 4))) break;
    end = start;
  }
  return html.slice(0, end);
}

/** Stored rich text from what a client sent: the allow-list's HTML, or null when no text or line is left. */
export function sanitizeRichText(html: string): string | null {
  const clean = withoutEmptyTail(sanitizeHtml(html, OPTIONS)).trim();
  // Markup with no text in it (an emptied editor's <p></p>) is no value.
  return clean.replace(/<[^>]*>|&nbsp;|\s/g, '') === '' ? null : clean;
}

/**
 * A validated body's richtext fields sanitised in place (the generic write's step for every resource that declares
 * one). Field errors: a field that grew past the limit by sanitising (entities, a link's rel), and a required one that
 * nothing is left of.
 */
export function sanitizeRichTextFields(decl: ResourceDeclaration, data: Row): Record<string, string> | undefined {
  let errors: Record<string, string> | undefined;
  for (const [field, meta] of Object.entries(decl.fields ?? {})) {
    if (meta.kind !== 'richtext' || typeof data[field] !== 'string') continue;
    const clean = sanitizeRichText(data[field] as string);
    if (clean !== null && utf8Bytes(clean) > richTextMax(meta.max)) (errors ??= {})[field] = 'error_too_long';
    else if (clean === null && meta.required) (errors ??= {})[field] = meta.requiredMessage ?? 'error_required';
    data[field] = clean === null && meta.default !== undefined ? meta.default : clean;
  }
  return errors;
}
