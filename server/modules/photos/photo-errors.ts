// The photo decoding error, on its own so that the server process can recognise it without loading
// the decoders (sharp, and libheif's WebAssembly for HEIC): those run in the photo-copy child process
// (./photo-copier.ts), and importing them made every start of the server slower.

/** The file is not an image sharp or the HEIC decoder can read: retrying will not help. */
export class UnreadablePhotoError extends Error {
  override name = 'UnreadablePhotoError';
}
