import type { MultipartFile } from '@fastify/multipart';
import { fileTypeFromBuffer } from 'file-type';
import { IMAGE_MIME_TYPES, inMegabytes, MAX_IMAGE_BYTES } from '../../common/domain/uploads';
import { AppError } from './errors';
import { checkDeclaredImageSize } from './image-size';

export type ImageUpload = { buffer: Buffer; mime: 'image/jpeg' | 'image/png'; ext: 'jpg' | 'png' };

/**
 * Reads a small image part (profile picture, signature, logo): JPEG or PNG by content (magic bytes),
 * under MAX_IMAGE_BYTES and at most MAX_IMAGE_PIXELS by its header. Too large → 413, anything else →
 * 415 (docs/product/messages.md).
 */
const IMAGE_TOO_LARGE = `File size must be less than ${inMegabytes(MAX_IMAGE_BYTES)}MB`;

export async function readImageUpload(
  part: MultipartFile,
  messages: { tooLarge?: string; wrongType?: string } = {},
): Promise<ImageUpload> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of part.file as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size >= MAX_IMAGE_BYTES) {
      part.file.resume();
      throw new AppError(413, messages.tooLarge ?? IMAGE_TOO_LARGE);
    }
    chunks.push(chunk);
  }
  if (part.file.truncated) throw new AppError(413, messages.tooLarge ?? IMAGE_TOO_LARGE);
  const buffer = Buffer.concat(chunks);
  const detected = await fileTypeFromBuffer(buffer);
  if (!detected || !(IMAGE_MIME_TYPES as readonly string[]).includes(detected.mime)) {
    throw new AppError(415, messages.wrongType ?? 'Only JPEG or PNG files are allowed');
  }
  await checkDeclaredImageSize(buffer, detected.mime);
  return detected.mime === 'image/png'
    ? { buffer, mime: 'image/png', ext: 'png' }
    : { buffer, mime: 'image/jpeg', ext: 'jpg' };
}
