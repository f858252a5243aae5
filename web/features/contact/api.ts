import { useMutation } from '@tanstack/react-query';
import type { ContactRequest, ContactResponse } from '../../../common/contracts/contact';
import { api } from '../../lib/api';

export const sendContactMessage = (body: ContactRequest) => api.post<ContactResponse>('/api/contact', body);

/** POST /api/contact (spec §7); nothing to invalidate: visitors never read inquiries back. */
export function useSendContactMessage() {
  return useMutation({ mutationFn: sendContactMessage });
}
