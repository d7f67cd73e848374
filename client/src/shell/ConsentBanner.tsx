import { Button } from '../components/Button';
import { useAnalyticsConsent } from './use-analytics-consent';

/**
 * Asks once whether the console may send product analytics (spec §1: nothing is sent without consent,
 * except on a local stack). Not modal: the console works while it waits; the answer can be changed in the
 * account settings.
 */
export function ConsentBanner() {
  const { needsAnswer, answer } = useAnalyticsConsent();
  if (!needsAnswer) return null;
  return (
    <section className="consent-banner" role="region" aria-labelledby="consent-title" data-testid="consent-banner">
      <div>
        <h2 id="consent-title" className="consent-title">
          Help us improve the console
        </h2>
        <p>May we record how you use the console (pages opened and actions such as creating a project)? Nothing is sent until you agree; you can change this in your account settings.</p>
      </div>
      <div className="consent-actions">
        <Button onClick={() => answer('denied')} data-testid="consent-decline">
          No, thanks
        </Button>
        <Button variant="primary" onClick={() => answer('granted')} data-testid="consent-accept">
          Allow analytics
        </Button>
      </div>
    </section>
  );
}
