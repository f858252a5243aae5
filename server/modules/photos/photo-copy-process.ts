import sharp from 'sharp';
import { makePhotoCopies, UnreadablePhotoError } from './photo-copies';

// The child process that decodes photos and makes their copies (./photo-copier.ts starts it), so
// that no decoding ever runs on the server's event loop and a decoder that runs away can be killed
// without touching the server. One request at a time; libvips gets one thread, so the copies take
// one core and leave the other to the server.

export type CopyRequest = { id: number; original: Uint8Array; mime: string };
export type CopyAnswer =
  | { id: number; ok: true; thumbnail: Uint8Array; display: Uint8Array; width: number; height: number }
  | { id: number; ok: false; unreadable: boolean; message: string };

sharp.concurrency(1);
sharp.cache(false);

const send = (answer: CopyAnswer) => process.send?.(answer);

process.on('message', (request: CopyRequest) => {
  const original = Buffer.from(
    request.original.buffer,
    request.original.byteOffset,
    request.original.byteLength,
  );
  makePhotoCopies(original, request.mime).then(
    (copies) =>
      send({
        id: request.id,
        ok: true,
        thumbnail: copies.thumbnail,
        display: copies.display,
        width: copies.width,
        height: copies.height,
      }),
    (err: Error) =>
      send({
        id: request.id,
        ok: false,
        unreadable: err instanceof UnreadablePhotoError,
        message: err.message,
      }),
  );
});
// The server went away (or let this process go): nothing is left to do.
process.on('disconnect', () => process.exit(0));
