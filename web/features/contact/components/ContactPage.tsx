import { PlaceholderPage } from '../../../components/PlaceholderPage';

export function ContactPage() {
  return <PlaceholderPage title="Contact" />;
}
