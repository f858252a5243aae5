import { PlaceholderPage } from '../../../components/PlaceholderPage';

export function AboutPage() {
  return <PlaceholderPage title="About" />;
}
