import { createElement, type ReactNode } from 'react';
import { isRichTextHref, RICHTEXT_TAGS } from '../../../resources/richtext';

const ALLOWED = new Set<string>(RICHTEXT_TAGS);

/** Elements whose content is not text a reader wrote: dropped whole (the API stores none; a hand-edited row might). */
const DROPPED = new Set(['script', 'style', 'template', 'iframe', 'object', 'embed', 'noscript', 'svg', 'math', 'textarea', 'select', 'title']);

function toReact(node: Node, key: number): ReactNode {
  if (node.nodeType === Node.TEXT_NODE) return node.textContent;
  if (node.nodeType !== Node.ELEMENT_NODE) return null;
  const element = node as Element;
  const tag = element.tagName.toLowerCase();
  if (DROPPED.has(tag)) return null;
  const children = Array.from(element.childNodes, toReact);
  // Another tag: its text stays, the tag goes (as the API's sanitiser does).
  if (!ALLOWED.has(tag)) return children;
  if (tag === 'br') return createElement('br', { key });
  if (tag === 'a') {
    const href = element.getAttribute('href')?.trim();
    if (!href || !isRichTextHref(href)) return createElement('a', { key }, ...children);
    const web = !/^mailto:/i.test(href);
    return createElement('a', { key, href, rel: 'noopener noreferrer', target: web ? '_blank' : undefined }, ...children);
  }
  return createElement(tag, { key }, ...children);
}

/**
 * Stored rich text (field kind richtext) on a public page, as React elements: the HTML is parsed into an inert
 * document (DOMParser runs and loads nothing) and only the allow-list's elements are drawn, a link with its http(s) or
 * mailto href alone. The API stored nothing else; drawing it this way instead of through innerHTML keeps that true
 * for a value that never passed the API, and needs nothing of the page's Content-Security-Policy.
 */
export function RichText({ html, className }: { html?: string | null; className: string }) {
  if (!html || !html.trim()) return null;
  const body = new DOMParser().parseFromString(html, 'text/html').body;
  return <div className={className}>{Array.from(body.childNodes, toReact)}</div>;
}
