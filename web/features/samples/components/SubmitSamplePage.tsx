import { PlaceholderPage } from '../../../components/PlaceholderPage';

export function SubmitSamplePage() {
  return <PlaceholderPage title="Submit Sample" />;
}
