import { NotAvailable } from '../../components/Card';
import { useCurrentRoute } from '../../lib/route-context';

export default function NotAvailablePage() {
  const route = useCurrentRoute();
  return <NotAvailable title={route?.layout.pageTitle ?? 'Not available yet'} />;
}
