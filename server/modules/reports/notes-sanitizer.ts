import sanitizeHtml from 'sanitize-html';
import { NOTES_ALLOWED_TAGS } from '../../../common/domain/reports';

const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [...NOTES_ALLOWED_TAGS],
  // The toolbar produces no attributes, so none survive: no handlers, no styles, no links.
  allowedAttributes: {},
  allowedSchemes: [],
  disallowedTagsMode: 'discard',
  // Script and style bodies are dropped with their tags, never kept as text.
  nonTextTags: ['script', 'style', 'textarea', 'option', 'noscript', 'iframe', 'object'],
};

/** Rich-text notes cut down to the editor's toolbar (docs/product/limits.md); empty notes become null. */
export function sanitizeNotes(html: string | null | undefined): string | null {
  if (html == null) return null;
  const clean = sanitizeHtml(html, OPTIONS).trim();
  const visibleText = clean
    .replace(/<[^<>]*>/g, '')
    .replace(/&nbsp;|&#160;/g, ' ')
    .trim();
  return visibleText === '' ? null : clean;
}
