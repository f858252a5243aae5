import { PlaceholderPage } from '../../../components/PlaceholderPage';

export function ServicesPage() {
  return <PlaceholderPage title="Services" />;
}
