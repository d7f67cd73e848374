import { useEffect, useState } from 'react';
import { useSearch } from 'wouter';
import { MESSAGES } from '../../../../shared/messages';
import { Skeleton } from '../../components/Skeleton';
import { StatusPage } from './StatusPage';

interface FlowError {
  error?: { message?: string; reason?: string };
}

/** Shows an identity-provider error (?id=) or a generic one. */
export default function ErrorPage() {
  const id = new URLSearchParams(useSearch()).get('id');
  const [text, setText] = useState<string | null>(id ? null : MESSAGES.genericFallback);

  useEffect(() => {
    if (!id) return;
    fetch(`/.ory/self-service/errors?id=${encodeURIComponent(id)}`, { headers: { Accept: 'application/json' }, credentials: 'same-origin' })
      .then(async (res) => (res.ok ? ((await res.json()) as FlowError) : null))
      .then((body) => setText(body?.error?.reason ?? body?.error?.message ?? MESSAGES.genericFallback))
      .catch(() => setText(MESSAGES.genericFallback));
  }, [id]);

  if (text === null) return <Skeleton />;
  return <StatusPage title="An error occurred" text={text} testId="error-page" />;
}
