import { ActionIcon, Box, Center, Group, Image, Paper, SimpleGrid, Text } from '@mantine/core';
import { IconFile, IconPhoto, IconX } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { formatKb } from '../lib/format';
import { isHeicFile } from '../lib/photos';

const fileKey = (f: File) => `${f.name}-${f.size}-${f.lastModified}`;
const looksLikeImage = (f: File) => f.type.startsWith('image/') || isHeicFile(f);

/** Shown where the browser cannot draw the chosen photo itself (HEIC outside Safari). */
function NoPreview({ file }: { file: File }) {
  const heic = isHeicFile(file);
  return (
    <Center
      h={80}
      bg="gray.1"
      style={{ borderRadius: 'var(--mantine-radius-sm)', flexDirection: 'column', gap: 2 }}
      role="img"
      aria-label={`${file.name}: ${heic ? 'HEIC photo, preview after upload' : 'no preview'}`}
      data-preview="placeholder"
    >
      <IconPhoto size={24} aria-hidden="true" />
      <Text size="xs" fw={600} aria-hidden="true">
        {heic ? 'HEIC photo' : 'No preview'}
      </Text>
      <Text size="xs" c="gray.8" aria-hidden="true">
        {heic ? 'Preview after upload' : ''}
      </Text>
    </Center>
  );
}

/**
 * One object URL per chosen file, kept for as long as the file stays chosen: re-renders (a new
 * `files` array with the same files) never swap an image's URL, nor revoke one still loading, which
 * made a preview fail to draw now and then and fall back to "no preview".
 */
function usePreviewUrls(files: File[]): (string | null)[] {
  const urls = useRef(new Map<File, string>());
  const current = files.map((f) => {
    if (!looksLikeImage(f)) return null;
    let url = urls.current.get(f);
    if (!url) {
      url = URL.createObjectURL(f);
      urls.current.set(f, url);
    }
    return url;
  });
  useEffect(() => {
    for (const [f, url] of urls.current)
      if (!files.includes(f)) {
        URL.revokeObjectURL(url);
        urls.current.delete(f);
      }
  }, [files]);
  const mounted = useRef(false);
  useEffect(() => {
    mounted.current = true;
    const map = urls.current;
    return () => {
      mounted.current = false;
      // Deferred: React's development double mount runs this cleanup and the effect again at once.
      setTimeout(() => {
        if (mounted.current) return;
        for (const url of map.values()) URL.revokeObjectURL(url);
        map.clear();
      }, 0);
    };
  }, []);
  return current;
}

/**
 * Thumbnails of the files chosen in a FilePicker, before anything is uploaded, each with a
 * remove button. Images are drawn by the browser from the local file; a HEIC photo that the browser
 * cannot decode gets a clear placeholder instead of a broken image (docs/product/photos.md).
 */
export function FilePreviews({
  files,
  onRemove,
  isRefused,
}: {
  files: File[];
  onRemove: (index: number) => void;
  isRefused?: (file: File) => boolean;
}) {
  const previews = usePreviewUrls(files);
  // Files the browser failed to draw (keyed by file, so removing one keeps the others' state).
  const [undrawable, setUndrawable] = useState<ReadonlySet<string>>(new Set());

  if (files.length === 0) return null;
  return (
    <SimpleGrid cols={{ base: 2, sm: 3, md: 5 }} spacing="sm" data-testid="file-previews">
      {files.map((file, i) => {
        const url = previews[i];
        const key = fileKey(file);
        const refused = isRefused?.(file) ?? false;
        return (
          <Paper
            key={key}
            withBorder
            p={6}
            radius="sm"
            pos="relative"
            data-refused={refused || undefined}
            style={refused ? { borderColor: 'var(--mantine-color-red-7)' } : undefined}
          >
            {url && !undrawable.has(key) ? (
              <Image
                src={url}
                alt={file.name}
                h={80}
                fit="cover"
                radius="sm"
                data-preview="image"
                onError={(e) => {
                  // Only the file's own, live preview URL counts as "cannot draw".
                  if (e.currentTarget.getAttribute('src') === url)
                    setUndrawable((prev) => new Set(prev).add(key));
                }}
              />
            ) : url ? (
              <NoPreview file={file} />
            ) : (
              <Box h={80} style={{ display: 'grid', placeItems: 'center' }}>
                <IconFile size={32} aria-hidden="true" />
              </Box>
            )}
            <Group gap={4} wrap="nowrap" mt={4} justify="space-between">
              <Box style={{ minWidth: 0 }}>
                <Text size="xs" truncate="end" title={file.name}>
                  {file.name}
                </Text>
                <Text size="xs" c={refused ? 'red.8' : 'dimmed'} fw={refused ? 600 : undefined}>
                  {formatKb(file.size)}
                  {refused ? ' — too large' : ''}
                </Text>
              </Box>
              <ActionIcon
                variant="subtle"
                color="red"
                size="sm"
                aria-label={`Remove ${file.name}`}
                onClick={() => onRemove(i)}
              >
                <IconX size={14} aria-hidden="true" />
              </ActionIcon>
            </Group>
          </Paper>
        );
      })}
    </SimpleGrid>
  );
}
