import { Stack, Text } from '@mantine/core';

/**
 * The report's rich text (cleaned on the server to the editor's tags) as plain paragraphs: the
 * browser parses it without running anything, and only the text is rendered.
 */
export function RichParagraphs({ html }: { html: string | null }) {
  if (!html) return null;
  const doc = new DOMParser().parseFromString(html, 'text/html');
  const blocks = Array.from(doc.body.querySelectorAll('p, h1, h2, h3, li'))
    .filter((el) => !el.querySelector('p, li'))
    .map((el) => el.textContent?.trim() ?? '')
    .filter(Boolean);
  const paragraphs = blocks.length ? blocks : [doc.body.textContent?.trim() ?? ''].filter(Boolean);
  return (
    <Stack gap={4}>
      {paragraphs.map((p, i) => (
        <Text key={i} size="sm" style={{ overflowWrap: 'anywhere' }}>
          {p}
        </Text>
      ))}
    </Stack>
  );
}
