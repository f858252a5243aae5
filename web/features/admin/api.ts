import {
  keepPreviousData,
  type QueryClient,
  queryOptions,
  useMutation,
  useQueryClient,
} from '@tanstack/react-query';
import { type AdminUser, USERS_PAGE_SIZE } from '../../../common/contracts/accounts';
import type { ContactInquiry, InquiryStatus } from '../../../common/contracts/inquiries';
import type { OutboxDetail, OutboxItem, OutboxList } from '../../../common/contracts/mail';
import type { AuditEvent, AuditVerification } from '../../../common/contracts/audit';
import type { LabSettings, LabSettingsRequest } from '../../../common/contracts/lab';
import type { Sample, SampleListItem } from '../../../common/contracts/samples';
import {
  ADMIN_PAGE_SIZE,
  type AdminAnalytics,
  START_ANALYSIS_COMMENT,
} from '../../../common/contracts/workflow';
import type { Role } from '../../../common/domain/roles';
import { api, apiUpload, fetchBlob, getPage, saveBlob } from '../../lib/api';
import { type ListView, viewToParams } from '../../lib/sample-filters';
import { type SampleFilters, sampleFiltersToParams } from '../../../common/contracts/sample-search';
import { pollWhileProcessing } from '../../lib/photos';
import { adminKeys, invalidateSampleViews } from '../../lib/query-keys';

// Admin data is fresh for 5 minutes (docs/product/limits.md: the query client's default stale time).

/** One page of the Samples tab: the view's search, filters and sort (kept in the page's URL). */
export const adminSamplesQuery = (view: ListView) => {
  const params = viewToParams(view);
  params.set('page', String(view.page));
  params.set('pageSize', String(ADMIN_PAGE_SIZE));
  const query = params.toString();
  return queryOptions({
    queryKey: adminKeys.sampleView(query),
    queryFn: () => getPage<SampleListItem>(`/api/admin/samples?${query}`),
    placeholderData: keepPreviousData,
    refetchInterval: pollWhileProcessing<{ rows: SampleListItem[] }>((page) =>
      page.rows.some((s) => s.photoProcessing),
    ),
  });
};

/** The Samples tab's filters as a CSV file (GET /api/admin/samples.csv), fetched with the token. */
export async function exportSamplesCsv(filters: SampleFilters): Promise<void> {
  const blob = await fetchBlob(`/api/admin/samples.csv?${sampleFiltersToParams(filters)}`);
  saveBlob(blob, `samples-${new Date().toISOString().slice(0, 10)}.csv`);
}

/** Every contact inquiry as a CSV file (GET /api/admin/contact-inquiries.csv). */
export async function exportInquiriesCsv(): Promise<void> {
  const blob = await fetchBlob('/api/admin/contact-inquiries.csv');
  saveBlob(blob, `contact-inquiries-${new Date().toISOString().slice(0, 10)}.csv`);
}

export const analyticsQuery = () =>
  queryOptions({
    queryKey: adminKeys.analytics(),
    queryFn: () => api.get<AdminAnalytics>('/api/admin/analytics'),
  });

/** One page of accounts for the Staff tab, searched and filtered on the server. */
export const usersPageQuery = (q: { page: number; search: string; role?: Role }) =>
  queryOptions({
    queryKey: ['admin', 'users', 'page', q],
    queryFn: () => {
      const params = new URLSearchParams({ page: String(q.page), pageSize: String(USERS_PAGE_SIZE) });
      if (q.search) params.set('search', q.search);
      if (q.role) params.set('role', q.role);
      return getPage<AdminUser>(`/api/admin/users?${params}`);
    },
    placeholderData: keepPreviousData,
  });

/** The assign selector lists users with role staff (docs/product/screens.md). */
export const staffUsersQuery = () =>
  queryOptions({
    queryKey: adminKeys.staffUsers(),
    queryFn: () => api.get<AdminUser[]>('/api/admin/users?role=staff'),
  });

export const labSettingsQuery = () =>
  queryOptions({
    queryKey: adminKeys.labSettings(),
    queryFn: () => api.get<LabSettings>('/api/lab/settings'),
  });

export const inquiriesQuery = (page: number) =>
  queryOptions({
    queryKey: adminKeys.inquiryPage(page),
    queryFn: () =>
      getPage<ContactInquiry>(`/api/admin/contact-inquiries?page=${page}&pageSize=${ADMIN_PAGE_SIZE}`),
    placeholderData: keepPreviousData,
  });

/** The Outbox (docs/product/mail.md): one page of mails, newest first. */
export const outboxQuery = (page: number) =>
  queryOptions({
    queryKey: adminKeys.outboxPage(page),
    queryFn: () => api.get<OutboxList>(`/api/admin/mail/outbox?page=${page}&pageSize=${ADMIN_PAGE_SIZE}`),
    placeholderData: keepPreviousData,
  });

/** One mail as rendered (HTML, text, headers), loaded when the admin opens it. */
export const outboxMailQuery = (id: number) =>
  queryOptions({
    queryKey: adminKeys.outboxMail(id),
    queryFn: () => api.get<OutboxDetail>(`/api/admin/mail/outbox/${id}`),
  });

/** A mutation whose success makes cached data stale; `invalidate` goes through the key factories. */
function useAdminMutation<V, R>(
  fn: (v: V) => Promise<R>,
  invalidate: (queryClient: QueryClient) => Promise<unknown>,
) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: fn, onSuccess: () => invalidate(queryClient) });
}

export const useAssignSample = () =>
  useAdminMutation(
    ({ id, staffId }: { id: number; staffId: number }) =>
      api.post<Sample>(`/api/admin/samples/${id}/assign`, { staffId }),
    invalidateSampleViews,
  );

/** 'Start Analysis': in-progress with the comment 'Started by staff' (docs/product/statuses.md). */
export const useStartAnalysis = () =>
  useAdminMutation(
    (id: number) =>
      api.post<Sample>(`/api/staff/samples/${id}/status`, {
        status: 'in-progress',
        comment: START_ANALYSIS_COMMENT,
      }),
    invalidateSampleViews,
  );

export const useChangeRole = () =>
  useAdminMutation(
    ({ id, role }: { id: number; role: Role }) =>
      api.post<AdminUser>(`/api/admin/users/${id}/role`, { role }),
    (queryClient) => queryClient.invalidateQueries({ queryKey: adminKeys.users() }),
  );

export const useSetInquiryStatus = () =>
  useAdminMutation(
    ({ id, status }: { id: number; status: InquiryStatus }) =>
      api.post<ContactInquiry>(`/api/admin/contact-inquiries/${id}/status`, { status }),
    (queryClient) => queryClient.invalidateQueries({ queryKey: adminKeys.inquiries() }),
  );

/** Deactivate (every token ends, login refused) or reactivate an account. */
export const useSetUserActive = () =>
  useAdminMutation(
    ({ id, isActive }: { id: number; isActive: boolean }) =>
      api.post<AdminUser>(`/api/admin/users/${id}/active`, { isActive }),
    (queryClient) => queryClient.invalidateQueries({ queryKey: adminKeys.users() }),
  );

/** Turn off another account's two-factor sign-in (lost authenticator); the owner is mailed. */
export const useResetTwoFactor = () =>
  useAdminMutation(
    (id: number) => api.post<AdminUser>(`/api/admin/users/${id}/2fa/reset`),
    (queryClient) => queryClient.invalidateQueries({ queryKey: adminKeys.users() }),
  );

/** The reply is stored, mailed to the sender, and the inquiry becomes responded. */
export const useReplyToInquiry = () =>
  useAdminMutation(
    ({ id, message }: { id: number; message: string }) =>
      api.post<ContactInquiry>(`/api/admin/contact-inquiries/${id}/reply`, { message }),
    (queryClient) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: adminKeys.inquiries() }),
        queryClient.invalidateQueries({ queryKey: adminKeys.outbox() }),
      ]),
  );

/** Send a failed (or waiting) mail again now. */
export const useRetryMail = () =>
  useAdminMutation(
    (id: number) => api.post<OutboxItem>(`/api/admin/mail/outbox/${id}/retry`),
    (queryClient) => queryClient.invalidateQueries({ queryKey: adminKeys.outbox() }),
  );

/** Multipart: 'settings' (JSON, empty fields as null) and an optional 'logo'. */
export const useSaveLabSettings = () =>
  useAdminMutation(
    ({ settings, logo }: { settings: LabSettingsRequest; logo: File | null }) => {
      const form = new FormData();
      form.append('settings', JSON.stringify(settings));
      if (logo) form.append('logo', logo);
      return apiUpload<LabSettings>('POST', '/api/lab/settings', form);
    },
    (queryClient) => queryClient.invalidateQueries({ queryKey: adminKeys.labSettings() }),
  );

/** The Refresh button: every admin query is stale and the visible ones reload. */
export function useRefreshAdminData() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: adminKeys.all });
}

/**
 * The audit trail (docs/product/audit-trail.md): one page of events, newest first. `query` is the
 * API's query string without the page (the filters as the URL keeps them).
 */
export const auditQuery = (query: string, page: number, pageSize: number) =>
  queryOptions({
    queryKey: adminKeys.auditPage(`${query}&page=${page}&pageSize=${pageSize}`),
    queryFn: () => getPage<AuditEvent>(`/api/admin/audit?${query}&page=${page}&pageSize=${pageSize}`),
    placeholderData: keepPreviousData,
  });

/** Checks the whole chain (on demand: it reads every event). */
export const useVerifyAuditChain = () =>
  useMutation({ mutationFn: () => api.get<AuditVerification>('/api/admin/audit/verify') });

/** Downloads the CSV of every event the filters select. */
export async function downloadAuditCsv(query: string): Promise<void> {
  const blob = await fetchBlob(`/api/admin/audit.csv?${query}`);
  saveBlob(blob, `audit-${new Date().toISOString().slice(0, 10)}.csv`);
}
