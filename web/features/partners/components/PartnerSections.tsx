import { ApiKeysSection } from './ApiKeysSection';
import { WebhooksSection } from './WebhooksSection';

/** The profile's sections for partners' systems: customers and admins (docs/product/partners.md). */
export function PartnerSections({ role }: { role: string }) {
  if (role !== 'user' && role !== 'admin') return null;
  return (
    <>
      <ApiKeysSection />
      <WebhooksSection />
    </>
  );
}
