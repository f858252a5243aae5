import { PlaceholderPage } from '../../../components/PlaceholderPage';

export function StaffDashboardPage() {
  return <PlaceholderPage title="Staff Dashboard" />;
}
