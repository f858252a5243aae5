import { PlaceholderPage } from '../../../components/PlaceholderPage';

export function LoginPage() {
  return <PlaceholderPage title="Login" />;
}
