import { useMutation } from '@tanstack/react-query';
import type { ContactRequest, ContactResponse } from '../../../common/contracts/contact';
import { api } from '../../lib/api';

export const sendContactMessage = (body: ContactRequest) => api.post<ContactResponse>('/api/contact', body);

/** POST /api/contact (docs/product/api.md); nothing to invalidate: visitors never read inquiries back. */
export function useSendContactMessage() {
  return useMutation({ mutationFn: sendContactMessage });
}
