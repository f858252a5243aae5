import { PlaceholderPage } from '../../../components/PlaceholderPage';

export function LandingPage() {
  return <PlaceholderPage title="Home" />;
}
