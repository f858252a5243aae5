import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import {
  type AuthUserResponse,
  type LoginRequest,
  type LoginResponse,
  PROFILE_IMAGE_PART,
  PROFILE_PART,
  type RegisterRequest,
  SIGNATURE_PART,
} from '../../../common/contracts/accounts';
import { api, apiUpload, fetchBlob } from '../../lib/api';
import { personalImageKeys } from '../../lib/query-keys';
import { authUserQuery } from '../../lib/session';

export const logIn = (body: LoginRequest) => api.post<LoginResponse>('/login', body);

/** POST /login (docs/product/api.md); the session stores the token and loads the profile. */
export function useLogIn() {
  return useMutation({ mutationFn: logIn });
}

export const register = (body: RegisterRequest) =>
  api.post<{ id: number; email: string }>('/api/register', body);

/** POST /api/register; a new account logs in afterwards, so there is nothing to invalidate. */
export function useRegister() {
  return useMutation({ mutationFn: register });
}

/** The JSON of the 'profile' part: trimmed, empty → null (docs/product/api.md). */
export type ProfileFields = { email: string; phone: string; firstName: string; lastName: string };

const orNull = (value: string) => {
  const trimmed = value.trim();
  return trimmed ? trimmed : null;
};

export function profileFormData(
  fields: ProfileFields,
  files: { profileImage?: File | null; signature?: File | null },
): FormData {
  const form = new FormData();
  form.append(
    PROFILE_PART,
    JSON.stringify({
      email: fields.email.trim(),
      phone: orNull(fields.phone),
      firstName: orNull(fields.firstName),
      lastName: orNull(fields.lastName),
    }),
  );
  if (files.profileImage) form.append(PROFILE_IMAGE_PART, files.profileImage);
  if (files.signature) form.append(SIGNATURE_PART, files.signature);
  return form;
}

/** PUT /api/users/profile (multipart, docs/product/api.md); the answer is the updated signed-in user. */
export function useUpdateProfile(token: string | null) {
  const queryClient = useQueryClient();
  const [progress, setProgress] = useState(0);
  const mutation = useMutation({
    mutationFn: (form: FormData) => {
      setProgress(0);
      return apiUpload<AuthUserResponse>('PUT', '/api/users/profile', form, setProgress);
    },
    onSuccess: (user) => {
      queryClient.setQueryData(authUserQuery(token).queryKey, user);
    },
  });
  return { ...mutation, progress };
}

/** A profile picture or signature under /Uploads, fetched with the token as a blob. */
export const personalImageQuery = (path: string | null) =>
  queryOptions({
    queryKey: personalImageKeys.image(path),
    queryFn: () => fetchBlob(path as string),
    enabled: Boolean(path),
    staleTime: Number.POSITIVE_INFINITY,
  });

/** An object URL for the image at `path`, revoked when the image changes or the screen closes. */
export function usePersonalImage(path: string | null) {
  const query = useQuery(personalImageQuery(path));
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!query.data) {
      setUrl(null);
      return;
    }
    const objectUrl = URL.createObjectURL(query.data);
    setUrl(objectUrl);
    return () => URL.revokeObjectURL(objectUrl);
  }, [query.data]);
  return { url, isError: query.isError, isLoading: query.isLoading };
}
