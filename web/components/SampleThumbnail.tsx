import type { ListThumbnail } from '../../common/contracts/samples';
import { ProtectedPhoto } from './ProtectedPhoto';

/**
 * A list row's picture: the sample's first photo as a thumbnail copy, or a placeholder while its
 * copies are made (docs/product/photos.md). Nothing when the sample has no photo to show.
 */
export function SampleThumbnail({
  sample,
  size,
}: {
  sample: ListThumbnail & { itemName: string };
  size: number;
}) {
  if (!sample.thumbnailUrl && !sample.photoProcessing) return null;
  return (
    <ProtectedPhoto
      url={sample.thumbnailUrl}
      processing={sample.photoProcessing}
      alt={`Photo of ${sample.itemName}`}
      width={size}
      height={size}
      style={{ flexShrink: 0 }}
    />
  );
}
