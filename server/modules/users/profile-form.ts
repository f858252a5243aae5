import type { MultipartFile } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import {
  INVALID_PROFILE_DATA,
  PROFILE_IMAGE_PART,
  PROFILE_PART,
  type ProfileUpdate,
  QUALIFICATIONS_RESTRICTED_MESSAGE,
  profileUpdate,
  SIGNATURE_PART,
  SIGNATURE_RESTRICTED_MESSAGE,
} from '../../../common/contracts/accounts';
import type { AuthUser } from '../../plugins/auth';
import {
  AppError,
  badRequest,
  fieldErrors,
  forbidden,
  invalidPayload,
  toHttpError,
  unsupportedType,
} from '../../plugins/errors';
import { type ImageUpload, readImageUpload } from '../../plugins/image-upload';
import { assertCleanText } from '../../plugins/text-guard';
import { canKeepQualifications, canUploadSignature } from '../../policies/users';

export type ProfileForm = {
  profile: ProfileUpdate;
  profileImage?: ImageUpload;
  signature?: ImageUpload;
};

// Room for the qualifications' rich text (at most 10,000 characters, a few bytes each).
const MAX_PROFILE_JSON_BYTES = 64 * 1024;
export const TOO_MANY_FILES = 'Too many files uploaded';

// The profile part, both images and room for a client that adds a stray field.
const LIMITS = { files: 3, fields: 5, parts: 8, fieldSize: MAX_PROFILE_JSON_BYTES };

async function drain(part: MultipartFile) {
  for await (const _chunk of part.file) {
    // discard
  }
}

function parseProfileJson(text: string): ProfileUpdate {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw badRequest(INVALID_PROFILE_DATA, [{ path: PROFILE_PART, message: 'Profile must be JSON' }]);
  }
  assertCleanText(json, PROFILE_PART);
  const parsed = profileUpdate.safeParse(json);
  if (!parsed.success) {
    throw invalidPayload(fieldErrors(parsed.error.issues, PROFILE_PART), INVALID_PROFILE_DATA);
  }
  return parsed.data;
}

/**
 * Reads the multipart body of PUT /api/users/profile (docs/product/api.md): the 'profile' JSON part and the
 * optional 'profileImage' and 'signature' images, held in memory (each under MAX_IMAGE_BYTES) so that nothing
 * is stored unless the whole request is valid. The first refusal wins; the rest of the body is
 * still read, so the client always receives the answer.
 */
export async function readProfileForm(request: FastifyRequest, user: AuthUser): Promise<ProfileForm> {
  if (!request.isMultipart()) throw unsupportedType('Expected multipart/form-data');
  let failure: unknown;
  let profileText: string | undefined;
  const form: Partial<ProfileForm> = {};
  try {
    for await (const part of request.parts({ limits: LIMITS })) {
      if (failure) {
        if (part.type === 'file') await drain(part);
        continue;
      }
      try {
        if (part.fieldname === PROFILE_PART) {
          if (profileText !== undefined) throw badRequest(INVALID_PROFILE_DATA);
          if (part.type === 'field') {
            if (part.valueTruncated) throw badRequest(INVALID_PROFILE_DATA);
            profileText = String(part.value);
          } else {
            // A client may send the JSON as a Blob: accept it as the same part.
            const buffer = await part.toBuffer();
            if (buffer.length > MAX_PROFILE_JSON_BYTES) throw badRequest(INVALID_PROFILE_DATA);
            profileText = buffer.toString('utf8');
          }
        } else if (part.fieldname === SIGNATURE_PART && part.type === 'file') {
          if (!canUploadSignature(user)) throw forbidden(SIGNATURE_RESTRICTED_MESSAGE);
          if (form.signature) throw new AppError(413, TOO_MANY_FILES);
          form.signature = await readImageUpload(part);
        } else if (part.fieldname === PROFILE_IMAGE_PART && part.type === 'file') {
          if (form.profileImage) throw new AppError(413, TOO_MANY_FILES);
          form.profileImage = await readImageUpload(part);
        } else if (part.type === 'file') {
          // Unknown fields are ignored (docs/product/api.md).
          await drain(part);
        }
      } catch (err) {
        failure = err;
        if (part.type === 'file') await drain(part);
      }
    }
  } catch (err) {
    // Busboy's own limits (too many files or parts) end the iteration; so does a body that is not
    // valid multipart (cut short, wrong boundary), which is the client's mistake: 400.
    const status = toHttpError(err).status;
    failure ??=
      status === 413
        ? new AppError(413, TOO_MANY_FILES)
        : status >= 500
          ? badRequest('Malformed multipart body')
          : err;
  }
  if (failure) {
    // A refusal can stop the multipart parser before the client has sent everything (an oversized
    // image): read and discard the rest, so the answer reaches the client and its keep-alive
    // connection stays usable for the next request.
    if (!request.raw.readableEnded) request.raw.resume();
    throw failure;
  }
  if (profileText === undefined)
    throw badRequest(INVALID_PROFILE_DATA, [{ path: PROFILE_PART, message: 'Email is required' }]);
  const profile = parseProfileJson(profileText);
  if (profile.qualifications !== undefined && !canKeepQualifications(user))
    throw forbidden(QUALIFICATIONS_RESTRICTED_MESSAGE);
  return { ...form, profile };
}
