import { Stack, Text } from '@mantine/core';

type Block = { text: string; kind: 'heading' | 'item' | 'paragraph' };

/**
 * The report's rich text (cleaned on the server to the editor's tags) as plain blocks: the browser
 * parses it without running anything, and only the text is rendered. A heading stays a heading to
 * the eye (bold, on its own line) and a list item keeps its bullet, as the PDF prints them.
 */
export function RichParagraphs({ html, size = 'sm' }: { html: string | null; size?: 'xs' | 'sm' }) {
  if (!html) return null;
  const doc = new DOMParser().parseFromString(html, 'text/html');
  const blocks: Block[] = Array.from(doc.body.querySelectorAll('p, h1, h2, h3, li'))
    .filter((el) => !el.querySelector('p, li'))
    .map((el) => ({
      text: el.textContent?.trim() ?? '',
      kind: /^H[1-3]$/.test(el.tagName)
        ? ('heading' as const)
        : el.tagName === 'LI'
          ? ('item' as const)
          : ('paragraph' as const),
    }))
    .filter((b) => b.text);
  const all: Block[] = blocks.length
    ? blocks
    : [{ text: doc.body.textContent?.trim() ?? '', kind: 'paragraph' as const }].filter((b) => b.text);
  return (
    <Stack gap={4}>
      {all.map((b, i) => (
        <Text
          key={i}
          size={size}
          fw={b.kind === 'heading' ? 700 : undefined}
          pl={b.kind === 'item' ? 'sm' : undefined}
          style={{ overflowWrap: 'anywhere' }}
        >
          {b.kind === 'item' ? `• ${b.text}` : b.text}
        </Text>
      ))}
    </Stack>
  );
}
