import { PlaceholderPage } from '../../../components/PlaceholderPage';

export function CustomerDashboardPage() {
  return <PlaceholderPage title="My Dashboard" />;
}
