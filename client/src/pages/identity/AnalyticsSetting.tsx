import { Card } from '../../components/Card';
import { Switch } from '../../components/Switch';
import { useAnalyticsConsent } from '../../shell/use-analytics-consent';

/** The account setting behind the consent banner: share product analytics, or not. */
export function AnalyticsSetting() {
  const { consent, consentRequired, answer } = useAnalyticsConsent();
  const on = consent === 'granted' || (consent === null && !consentRequired);
  return (
    <Card title="Product analytics" testId="settings-analytics">
      <Switch
        label="Share usage analytics"
        checked={on}
        onCheckedChange={(checked) => answer(checked ? 'granted' : 'denied')}
        description={
          consentRequired
            ? 'Pages you open and actions such as creating a project are sent to us to improve the console.'
            : 'This console runs on a local stack: usage events stay on this machine unless you turn them off.'
        }
        testId="analytics-consent-switch"
      />
    </Card>
  );
}
