import { PlaceholderPage } from '../../../components/PlaceholderPage';

export type LegalTopic = 'privacy' | 'terms' | 'cookies';
const TITLES: Record<LegalTopic, string> = {
  privacy: 'Privacy Policy',
  terms: 'Terms of Service',
  cookies: 'Cookies',
};

export function LegalPage({ topic }: { topic: LegalTopic }) {
  return <PlaceholderPage title={TITLES[topic]} />;
}
