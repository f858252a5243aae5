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
export function ProtectedPhoto({
  url,
  processing,
  alt,
  width,
  height,
  fit = 'cover',
  style,
}: {
  url: string | null;
  processing: boolean;
  alt: string;
  width: number | string;
  height: number | string;
  fit?: 'cover' | 'contain';
  style?: CSSProperties;
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
            Preparing photo…
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
            Preview unavailable
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
