import { PlaceholderPage } from '../../../components/PlaceholderPage';

export function RegisterPage() {
  return <PlaceholderPage title="Register" />;
}
