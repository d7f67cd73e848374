import { LinkButton } from '../../components/Button';

export function StatusPage({ code, title, text, testId }: { code?: string; title: string; text: string; testId: string }) {
  return (
    <div className="state status-page" data-testid={testId}>
      {code && <p className="status-code">{code}</p>}
      <h1 className="state-title">{title}</h1>
      <p className="state-text">{text}</p>
      <LinkButton href="/">Go to the Console</LinkButton>
    </div>
  );
}
