import { PlaceholderPage } from '../../../components/PlaceholderPage';

export function SampleDetailPage() {
  return <PlaceholderPage title="Sample" />;
}
