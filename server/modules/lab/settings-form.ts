import type { FastifyRequest } from 'fastify';
import { badRequest } from '../../plugins/errors';
import { type ImageUpload, readImageUpload } from '../../plugins/image-upload';
import { assertCleanText } from '../../plugins/text-guard';

/** Reads the multipart body: the 'settings' JSON part and an optional 'logo' image. */
export async function readSettingsForm(
  request: FastifyRequest,
): Promise<{ settings: unknown; logo: ImageUpload | null }> {
  if (!request.isMultipart()) throw badRequest("Expected multipart form data with a 'settings' part");
  let settingsText: string | null = null;
  let logo: ImageUpload | null = null;
  for await (const part of request.parts()) {
    if (part.type === 'file') {
      if (part.fieldname === 'logo' && !logo) logo = await readImageUpload(part);
      else part.file.resume();
    } else if (part.fieldname === 'settings') {
      settingsText = String(part.value ?? '');
    }
  }
  if (settingsText === null) throw badRequest("The 'settings' part is required");
  let settings: unknown;
  try {
    settings = JSON.parse(settingsText);
  } catch {
    throw badRequest("The 'settings' part must be JSON");
  }
  assertCleanText(settings, 'settings');
  return { settings, logo };
}
