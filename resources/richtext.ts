/**
 * Rich text (platform-and-flows.md section 1, field kind `richtext`): HTML of a small allow-list, at most 100 KB. The
 * API sanitises every richtext field it is sent (api/crud/richtext.ts) and the console's editor offers only these
 * (admin/src/generated/RichText.tsx); both read this list, so neither can offer what the other drops.
 */
export const RICHTEXT_TAGS = ['p', 'br', 'strong', 'em', 'u', 's', 'a', 'ul', 'ol', 'li', 'h2', 'h3', 'blockquote'] as const;

/** The schemes a link may have; anything else (javascript:, data:, relative or protocol-relative) loses its href. */
export const RICHTEXT_LINK_SCHEMES = ['http', 'https', 'mailto'] as const;

/** 100 KB of UTF-8, before and after sanitising. */
export const RICHTEXT_MAX_BYTES = 100 * 1024;

/** A field's limit: its own `max` when lower, never above the contract's 100 KB. */
export const richTextMax = (max?: number): number => Math.min(max ?? RICHTEXT_MAX_BYTES, RICHTEXT_MAX_BYTES);

const LINK_RE = /^(https?:\/\/|mailto:)/i;

/** Whether a link target is one a stored link may have (the editor refuses others before the server drops them). */
export const isRichTextHref = (href: string): boolean => LINK_RE.test(href.trim());

/** The size of a value as stored (UTF-8 bytes); TextEncoder so the admin's form measures it the same way. */
export const utf8Bytes = (value: string): number => new TextEncoder().encode(value).length;
