import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type {
  AuthUserResponse,
  LoginRequest,
  ChangePasswordRequest,
  ForgotPasswordRequest,
  MessageResponse,
  ResetPasswordRequest,
  LoginResponse,
  RegisterRequest,
} from '../../../common/contracts/accounts';
import {
  PROFILE_IMAGE_PART,
  PROFILE_PART,
  SIGNATURE_PART,
} from '../../../common/contracts/accounts-constants';
import type {
  LoginAnswer,
  MfaVerifyRequest,
  RecoveryCodesRequest,
  TotpEnableRequest,
  TotpEnableResponse,
  TotpSetupRequest,
  TotpSetupResponse,
  TwoFactorDisableRequest,
} from '../../../common/contracts/two-factor';
import { api, apiUpload } from '../../lib/api';
import { mailLinkKeys } from '../../lib/query-keys';
import { authUserQuery } from '../../lib/session';

export const logIn = (body: LoginRequest) => api.post<LoginAnswer>('/login', body);

/** POST /api/auth/2fa/verify: the second step of a sign-in with two factors. */
export const verifySecondFactor = (body: MfaVerifyRequest) =>
  api.post<LoginResponse>('/api/auth/2fa/verify', body);

export function useVerifySecondFactor() {
  return useMutation({ mutationFn: verifySecondFactor });
}

/**
 * Two-factor set-up, confirmation, new recovery codes and turning off, each with the current password
 * (docs/product/accounts-and-sessions.md).
 */
export function useTwoFactorSettings(token: string | null) {
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: authUserQuery(token).queryKey });
  return {
    setup: useMutation({
      mutationFn: (body: TotpSetupRequest) => api.post<TotpSetupResponse>('/api/auth/2fa/totp/setup', body),
    }),
    enable: useMutation({
      mutationFn: (body: TotpEnableRequest) =>
        api.post<TotpEnableResponse>('/api/auth/2fa/totp/enable', body),
      onSuccess: refresh,
    }),
    renewRecoveryCodes: useMutation({
      mutationFn: (body: RecoveryCodesRequest) =>
        api.post<TotpEnableResponse>('/api/auth/2fa/recovery-codes', body),
    }),
    disable: useMutation({
      mutationFn: (body: TwoFactorDisableRequest) =>
        api.post<{ message: string }>('/api/auth/2fa/disable', body),
      onSuccess: refresh,
    }),
  };
}

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

// Password reset, e-mail confirmation, password change, sessions (docs/product/accounts-and-sessions.md).

/** POST /api/auth/forgot-password: always the same 202 answer, whether or not the account exists. */
export function useForgotPassword() {
  return useMutation({
    mutationFn: (body: ForgotPasswordRequest) => api.post<MessageResponse>('/api/auth/forgot-password', body),
  });
}

/** POST /api/auth/reset-password with the token of the mailed link. */
export function useResetPassword() {
  return useMutation({
    mutationFn: (body: ResetPasswordRequest) => api.post<MessageResponse>('/api/auth/reset-password', body),
  });
}

/**
 * A link from a mail used once when its page opens (POST with the link's token). A query, not an
 * effect: a second render of the page (strict mode, a remount) reads the first answer instead of
 * spending the token again.
 */
export const mailLinkQuery = (purpose: 'verify-email' | 'unsubscribe', token: string) =>
  queryOptions({
    queryKey: mailLinkKeys.link(purpose, token),
    queryFn: () =>
      purpose === 'verify-email'
        ? api.post<MessageResponse>('/api/auth/verify-email', { token })
        : api.post<MessageResponse>('/api/mail/unsubscribe', { token }),
    enabled: token.length > 0,
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: Number.POSITIVE_INFINITY,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });

/** A mutation that answers the signed-in user, put into the session's cache. */
function useUserMutation<V>(token: string | null, fn: (v: V) => Promise<AuthUserResponse>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: (user) => queryClient.setQueryData(authUserQuery(token).queryKey, user),
  });
}

/** PUT /api/users/preferences {notifyStatusChanges}. */
export const useMailPreferences = (token: string | null) =>
  useUserMutation(token, (notifyStatusChanges: boolean) =>
    api.put<AuthUserResponse>('/api/users/preferences', { notifyStatusChanges }),
  );

/** POST /api/auth/verify-email/resend: a new confirmation link to the signed-in user. */
export function useResendVerification() {
  return useMutation({
    mutationFn: () => api.post<MessageResponse>('/api/auth/verify-email/resend'),
  });
}

/** PUT /api/users/password: answers a fresh token that keeps this browser signed in. */
export function useChangePassword() {
  return useMutation({
    mutationFn: (body: ChangePasswordRequest) =>
      api.put<{ token: string; message: string }>('/api/users/password', body),
  });
}

/** POST /api/auth/logout-all: every token of the account ends, this one too. */
export function useSignOutEverywhere() {
  return useMutation({ mutationFn: () => api.post<null>('/api/auth/logout-all') });
}

/** The JSON of the 'profile' part: trimmed, empty → null (docs/product/api.md). */
export type ProfileFields = {
  email: string;
  phone: string;
  firstName: string;
  lastName: string;
  /** Needed only when the e-mail changes (docs/product/accounts-and-sessions.md). */
  currentPassword: string;
  /** Staff and admins only (rich text); left out for a customer. */
  qualifications?: string;
};

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
      ...(fields.currentPassword ? { currentPassword: fields.currentPassword } : {}),
      ...(fields.qualifications !== undefined ? { qualifications: fields.qualifications } : {}),
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
