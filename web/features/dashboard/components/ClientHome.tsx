import { PlaceholderPage } from '../../../components/PlaceholderPage';

export function ClientHome() {
  return <PlaceholderPage title="Welcome" />;
}
