import { describe, expect, it } from 'vitest';
import { MAX_IMAGE_BYTES } from '../../../common/domain/uploads';
import { HttpError } from '../../lib/api';
import { imageProblem, PROFILE_TEXT, profileUpdateError } from './profile-messages';

const refused = (status: number, message: string) =>
  new HttpError(status, JSON.stringify({ message }), message);

describe('profile update errors in the words of docs/product/messages.md', () => {
  it.each([
    [
      refused(413, 'File size must be less than 2MB'),
      'File size exceeds 2MB limit or too many files uploaded',
    ],
    [refused(413, 'Too many files uploaded'), 'File size exceeds 2MB limit or too many files uploaded'],
    [
      refused(403, 'Signature uploads are restricted to admin or staff roles'),
      'Signature uploads are restricted to admin or staff roles',
    ],
    [refused(400, 'Invalid profile data'), 'Invalid profile data provided'],
    [refused(409, 'An account with this email already exists'), 'An account with this email already exists'],
    [refused(415, 'Only JPEG or PNG files are allowed'), 'Only JPEG or PNG files are allowed'],
    [new HttpError(502, '', undefined), 'HTTP error! status: 502, message: '],
    [new Error('Network error'), 'Network error'],
    ['odd', 'Failed to update profile'],
  ])('%s → %s', (err, text) => {
    expect(profileUpdateError(err)).toBe(text);
  });

  it('titles the toast "Failed to update profile"', () => {
    expect(PROFILE_TEXT.updateFailed).toBe('Failed to update profile');
  });
});

describe('chosen image checks (docs/product/messages.md)', () => {
  it('accepts JPEG and PNG under 2MB', () => {
    expect(imageProblem({ type: 'image/png', size: 10 })).toBeNull();
    expect(imageProblem({ type: 'image/jpeg', size: MAX_IMAGE_BYTES - 1 })).toBeNull();
  });
  it('refuses other types and 2MB or more with the documented messages', () => {
    expect(imageProblem({ type: 'image/gif', size: 10 })).toBe('Only JPEG or PNG files are allowed');
    expect(imageProblem({ type: 'image/png', size: MAX_IMAGE_BYTES })).toBe(
      'File size must be less than 2MB',
    );
  });
});
