import { PlaceholderPage } from '../../../components/PlaceholderPage';

export function VerifyReportPage() {
  return <PlaceholderPage title="Verify Report" />;
}
