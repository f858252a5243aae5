import { Box, Center, Loader, Skeleton, Text } from '@mantine/core';
import { IconPhotoOff } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { type CSSProperties, useEffect, useState } from 'react';
import { photoBlobQuery } from '../lib/photos';

/**
 * One photo copy fetched with the token (docs/product/photos.md). While the server is still making
 * the copies (`processing`), a placeholder says so; the caller's query polls and the image appears
 * by itself. `url` null and not processing: the photo cannot be shown (undecodable file).
 */
const PREPARING_TEXT = 'Preparing photo…';
const UNAVAILABLE_TEXT = 'Preview unavailable';

export function ProtectedPhoto({
  url,
  processing,
  alt,
  width,
  height,
  fit = 'cover',
  style,
  onStatusText,
}: {
  url: string | null;
  processing: boolean;
  alt: string;
  width: number | string;
  height: number | string;
  fit?: 'cover' | 'contain';
  style?: CSSProperties;
  /**
   * Told the status text shown on the picture ('Preparing photo…', 'Preview unavailable'), or null
   * when none shows: a labelled control around the picture must name what it visibly says (WCAG
   * 2.5.3, axe's label-content-name-mismatch).
   */
  onStatusText?: (text: string | null) => void;
}) {
  const query = useQuery({ ...photoBlobQuery(url ?? ''), enabled: Boolean(url) });
  const [objectUrl, setObjectUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!query.data) return;
    const made = URL.createObjectURL(query.data);
    setObjectUrl(made);
    return () => {
      URL.revokeObjectURL(made);
      setObjectUrl(null);
    };
  }, [query.data]);

  // Small slots (dashboard rows) show only the icon; the accessible name still says what is going on.
  const compact = typeof width === 'number' && width < 100;
  const statusText = compact
    ? null
    : processing
      ? PREPARING_TEXT
      : !url || query.isError
        ? UNAVAILABLE_TEXT
        : null;
  useEffect(() => {
    onStatusText?.(statusText);
  }, [onStatusText, statusText]);
  const frame: CSSProperties = { width, height, borderRadius: 'var(--mantine-radius-sm)', ...style };
  if (processing) {
    return (
      <Center
        role="img"
        aria-label={`${alt} (preparing photo)`}
        bg="gray.1"
        style={{ ...frame, flexDirection: 'column', gap: 4 }}
        data-photo-state="processing"
      >
        <Loader size="xs" aria-hidden="true" />
        {!compact && (
          <Text size="xs" c="gray.8" ta="center" aria-hidden="true">
            {PREPARING_TEXT}
          </Text>
        )}
      </Center>
    );
  }
  if (!url || query.isError) {
    return (
      <Center
        role="img"
        aria-label={`${alt} (preview unavailable)`}
        bg="gray.1"
        style={{ ...frame, flexDirection: 'column', gap: 4 }}
        data-photo-state="unavailable"
      >
        <IconPhotoOff size={20} aria-hidden="true" />
        {!compact && (
          <Text size="xs" c="gray.8" ta="center" aria-hidden="true">
            {UNAVAILABLE_TEXT}
          </Text>
        )}
      </Center>
    );
  }
  if (!objectUrl) return <Skeleton style={frame} aria-hidden="true" data-photo-state="loading" />;
  return (
    <Box
      component="img"
      src={objectUrl}
      alt={alt}
      style={{ ...frame, objectFit: fit, display: 'block' }}
      data-photo-state="ready"
    />
  );
}
