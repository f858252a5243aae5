import { PlaceholderPage } from '../../../components/PlaceholderPage';

export function AdminDashboardPage() {
  return <PlaceholderPage title="Admin Dashboard" />;
}
