import { Button, Group, Modal, SimpleGrid, Stack, Text, UnstyledButton } from '@mantine/core';
import { useHotkeys, useMediaQuery } from '@mantine/hooks';
import { IconChevronLeft, IconChevronRight, IconDownload } from '@tabler/icons-react';
import { useState } from 'react';
import type { SampleFile } from '../../../../common/contracts/samples';
import { THUMBNAIL_MAX_PX } from '../../../../common/domain/photos';
import { ProtectedPhoto } from '../../../components/ProtectedPhoto';
import { errorMessage, fetchBlob, saveBlob } from '../../../lib/api';
import { formatKb } from '../../../lib/format';
import { toast } from '../../../lib/toast';
import { uploadPath } from '../api';

const caption = (photo: SampleFile) => `${photo.originalName} · ${formatKb(photo.fileSize)}`;

async function downloadOriginal(photo: SampleFile) {
  try {
    saveBlob(await fetchBlob(uploadPath(photo.fileName)), photo.originalName);
  } catch (err) {
    toast.error('Error', errorMessage(err, 'Failed to download the photo'));
  }
}

/**
 * The sample page's photos: thumbnails, and a viewer with the display copy, previous/next (buttons
 * and arrow keys), Escape to close, the original file's name and size, and "Download original"
 * (docs/product/photos.md). `open` is the index shown in the viewer, or null.
 */
export function PhotoGallery({
  photos,
  open,
  onOpenChange,
}: {
  photos: SampleFile[];
  open: number | null;
  onOpenChange: (index: number | null) => void;
}) {
  const narrow = useMediaQuery('(max-width: 36em)');
  const count = photos.length;
  const current = open === null ? undefined : photos[open];
  const go = (step: number) => {
    if (open !== null && count > 0) onOpenChange((open + step + count) % count);
  };
  // Arrow keys page through the viewer wherever focus is inside it; Escape is the Modal's own.
  useHotkeys(
    [
      ['ArrowLeft', () => go(-1)],
      ['ArrowRight', () => go(1)],
    ],
    [],
    true,
  );
  if (count === 0) return <Text c="dimmed">No photos uploaded.</Text>;

  return (
    <>
      <SimpleGrid
        cols={{ base: 2, xs: 3, md: 5 }}
        spacing="sm"
        component="ul"
        p={0}
        m={0}
        style={{ listStyle: 'none' }}
      >
        {photos.map((photo, i) => (
          <GalleryThumbnail key={photo.id} photo={photo} index={i} count={count} onOpen={onOpenChange} />
        ))}
      </SimpleGrid>

      <Modal
        opened={current !== undefined}
        onClose={() => onOpenChange(null)}
        title={open === null ? '' : `Photo ${open + 1} of ${count}`}
        size="xl"
        fullScreen={narrow}
        centered
      >
        {current && (
          <Stack gap="sm" data-testid="photo-viewer">
            <ProtectedPhoto
              key={current.id}
              url={current.displayUrl}
              processing={current.processing}
              alt={current.originalName}
              width="100%"
              height={narrow ? '60vh' : '65vh'}
              fit="contain"
              style={{ background: 'var(--mantine-color-gray-1)' }}
            />
            <Text size="sm" ta="center" aria-live="polite" data-testid="photo-caption">
              {caption(current)}
            </Text>
            <Group justify="space-between" wrap="wrap" gap="xs">
              <Button
                variant="default"
                leftSection={<IconChevronLeft size={16} aria-hidden="true" />}
                onClick={() => go(-1)}
                disabled={count < 2}
                aria-label="Previous photo"
              >
                Previous
              </Button>
              <Button
                variant="light"
                leftSection={<IconDownload size={16} aria-hidden="true" />}
                onClick={() => downloadOriginal(current)}
              >
                Download original
              </Button>
              <Button
                variant="default"
                rightSection={<IconChevronRight size={16} aria-hidden="true" />}
                onClick={() => go(1)}
                disabled={count < 2}
                aria-label="Next photo"
              >
                Next
              </Button>
            </Group>
          </Stack>
        )}
      </Modal>
    </>
  );
}

/**
 * One photo of the grid: a button that opens the viewer. Its name says which photo it opens and,
 * while the picture shows a status ('Preparing photo…'), that status too, as it is seen (not in
 * parentheses: WCAG 2.5.3 checkers drop parenthesised text from the name).
 */
function GalleryThumbnail({
  photo,
  index,
  count,
  onOpen,
}: {
  photo: SampleFile;
  index: number;
  count: number;
  onOpen: (index: number) => void;
}) {
  const [status, setStatus] = useState<string | null>(null);
  return (
    <li>
      <UnstyledButton
        onClick={() => onOpen(index)}
        aria-label={`Open photo ${index + 1} of ${count}: ${photo.originalName}${status ? ` — ${status}` : ''}`}
        style={{ display: 'block', width: '100%', borderRadius: 'var(--mantine-radius-sm)' }}
        data-testid="gallery-thumbnail"
      >
        <ProtectedPhoto
          url={photo.thumbnailUrl}
          processing={photo.processing}
          alt={photo.originalName}
          width="100%"
          height={120}
          style={{ maxWidth: THUMBNAIL_MAX_PX }}
          onStatusText={setStatus}
        />
      </UnstyledButton>
      <Text size="xs" truncate="end" mt={4} title={photo.originalName}>
        {photo.originalName}
      </Text>
    </li>
  );
}
