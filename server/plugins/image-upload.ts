import type { MultipartFile } from '@fastify/multipart';
import { fileTypeFromBuffer } from 'file-type';
import { IMAGE_MIME_TYPES, MAX_IMAGE_BYTES } from '../../common/domain/uploads';
import { AppError } from './errors';

export type ImageUpload = { buffer: Buffer; mime: 'image/jpeg' | 'image/png'; ext: 'jpg' | 'png' };

/**
 * Reads a small image part (profile picture, signature, logo): JPEG or PNG by content (magic bytes),
 * under 2 MB. Too large → 413, anything else → 415; the messages are the spec's (§5 Profile).
 */
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
      throw new AppError(413, messages.tooLarge ?? 'File size must be less than 2MB');
    }
    chunks.push(chunk);
  }
  if (part.file.truncated) throw new AppError(413, messages.tooLarge ?? 'File size must be less than 2MB');
  const buffer = Buffer.concat(chunks);
  const detected = await fileTypeFromBuffer(buffer);
  if (!detected || !(IMAGE_MIME_TYPES as readonly string[]).includes(detected.mime)) {
    throw new AppError(415, messages.wrongType ?? 'Only JPEG or PNG files are allowed');
  }
  return detected.mime === 'image/png'
    ? { buffer, mime: 'image/png', ext: 'png' }
    : { buffer, mime: 'image/jpeg', ext: 'jpg' };
}
