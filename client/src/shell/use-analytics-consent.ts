import { useSyncExternalStore } from 'react';
import { consoleAnalytics, type Consent } from '../lib/analytics';

const noop = () => () => undefined;

/** The user's analytics consent, whether the banner should ask for it, and a way to answer. */
export function useAnalyticsConsent(): { consent: Consent; needsAnswer: boolean; consentRequired: boolean; answer: (consent: 'granted' | 'denied') => void } {
  const subscribe = consoleAnalytics?.subscribe ?? noop;
  // The server's first paint (entry-server.tsx) knows no consent yet: it asks nothing.
  const consent = useSyncExternalStore(subscribe, () => consoleAnalytics?.consent() ?? null, () => null);
  const needsAnswer = useSyncExternalStore(subscribe, () => consoleAnalytics?.needsAnswer() ?? false, () => false);
  const consentRequired = useSyncExternalStore(subscribe, () => consoleAnalytics?.consentRequired() ?? true, () => true);
  return { consent, needsAnswer, consentRequired, answer: (c) => consoleAnalytics?.setConsent(c) };
}
