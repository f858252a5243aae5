import { PlaceholderPage } from '../../../components/PlaceholderPage';

export function ProfilePage() {
  return <PlaceholderPage title="Profile" />;
}
