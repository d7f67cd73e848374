import { useState } from 'react';
import { Link } from 'wouter';
import { ACTIVITY_RANGES, type ActivityRange } from '../../../../shared/domain/metrics';
import { formatNumber } from '../../../../shared/domain/format';
import { Card, PageHeader } from '../../components/Card';
import { QueryView } from '../../components/QueryView';
import { Select } from '../../components/TextField';
import { useUrlState } from '../../lib/use-url-state';
import { ROUTES } from '../../routes';
import { useProject } from '../../shell/ProjectContext';
import { trpc } from '../../trpc';
import { TimeChart } from './TimeChart';
import { activityWindow, RESOLUTIONS, resolutionsFor } from './window';

const RANGE_OPTIONS = (Object.keys(ACTIVITY_RANGES) as ActivityRange[]).map((value) => ({ value, label: ACTIVITY_RANGES[value].label }));

const CHARTS = [
  { type: 'RegistrationSucceeded', title: 'Sign-ups', none: 'No sign-ups in this range', id: 'signups', hint: 'Sign up on your project’s registration page to record the first one.' },
  { type: 'LoginSucceeded', title: 'Sign-ins', none: 'No sign-ins in this range', id: 'signins', hint: 'Sign in on your project’s login page to record the first one.' },
  { type: 'SessionIssued', title: 'Sessions started', none: 'No sessions started in this range', id: 'sessions', hint: 'Every sign-up and sign-in starts a session.' },
  { type: 'OAuth2TokenIssued', title: 'OAuth2 tokens issued', none: 'No OAuth2 tokens issued in this range', id: 'tokens', hint: 'Create an OAuth2 client and request a token to record the first one.' },
  { type: 'PermissionChecked', title: 'Permission checks', none: 'No permission checks in this range', id: 'checks', hint: 'Check a permission with the Permissions API to record the first one.' },
] as const;

/** /projects/{project}/activity: what the project's users and apps did over a range, charted per bucket; range and resolution in the URL. */
export default function ActivityPage() {
  const project = useProject();
  const [url, setUrl] = useUrlState(['range', 'resolution'] as const);
  const range: ActivityRange = url.range in ACTIVITY_RANGES ? (url.range as ActivityRange) : '7d';
  const resolutions = resolutionsFor(range);
  const resolution = resolutions.includes(url.resolution) ? url.resolution : ACTIVITY_RANGES[range].resolution;
  // The window's end is fixed when the page opens (and when the range changes), so the charts share one range.
  const [opened] = useState(() => Date.now());
  const { from, to } = activityWindow(opened, range);

  return (
    <div className="page" data-testid="activity-page">
      <PageHeader
        title="Activity"
        description="Sign-ups, sign-ins, sessions, active users, tokens and permission checks of this project over time."
        actions={
          <div className="filters activity-controls">
            <Select label="Range" options={RANGE_OPTIONS} value={range} onChange={(e) => setUrl({ range: e.target.value, resolution: '' })} data-testid="activity-range" />
            <Select
              label="Resolution"
              options={resolutions.map((r) => ({ value: r, label: RESOLUTIONS[r] ?? r }))}
              value={resolution}
              onChange={(e) => setUrl({ resolution: e.target.value })}
              data-testid="activity-resolution"
            />
          </div>
        }
      />
      <p className="muted">
        Each event is listed in <Link href={`${ROUTES.activityEvents.build({ project: project.id })}`}>Events</Link>, with its attributes.
      </p>
      <div className="activity-grid">
        {CHARTS.map((chart) => (
          <SeriesCard key={chart.id} projectId={project.id} from={from} to={to} resolution={resolution} {...chart} />
        ))}
        <ActiveUsersCard projectId={project.id} from={from} to={to} />
        <MethodsCard projectId={project.id} from={from} to={to} />
      </div>
    </div>
  );
}

function SeriesCard({ projectId, type, title, none, id, hint, from, to, resolution }: { projectId: string; type: string; title: string; none: string; id: string; hint: string; from: string; to: string; resolution: string }) {
  const series = trpc.metrics.series.useQuery({ projectId, eventType: type, resolution, from, to }, { placeholderData: (previous) => previous });
  return (
    <Card title={title} testId={`activity-${id}`}>
      <QueryView
        query={series}
        skeleton="card"
        errorTitle={`${title} could not be loaded`}
        isEmpty={(answer) => answer.data.every((p) => p.count === 0)}
        empty={{ title: none, description: hint, testId: `activity-${id}-empty` }}
      >
        {(answer) => {
          const total = answer.data.reduce((n, p) => n + p.count, 0);
          const peak = answer.data.reduce((best, p) => (p.count > best.count ? p : best), answer.data[0]!);
          return (
            <figure className="activity-figure">
              <TimeChart points={answer.data} label={title} testId={`activity-${id}-chart`} />
              <figcaption className="muted">
                <span data-testid={`activity-${id}-total`}>{formatNumber(total)}</span> in this range, at most {formatNumber(peak.count)} in one bucket.
              </figcaption>
            </figure>
          );
        }}
      </QueryView>
    </Card>
  );
}

/** Daily active users counted from the events (each identity once a day), and the sessions active right now. */
function ActiveUsersCard({ projectId, from, to }: { projectId: string; from: string; to: string }) {
  const active = trpc.metrics.activeUsers.useQuery({ projectId, from, to }, { placeholderData: (previous) => previous });
  return (
    <Card title="Daily active users" testId="activity-active-users">
      <QueryView
        query={active}
        skeleton="card"
        errorTitle="Daily active users could not be loaded"
        isEmpty={(answer) => answer.activeSessions === 0 && answer.daily.every((d) => d.count === 0)}
        empty={{ title: 'No active users in this range', description: 'Sign up or sign in on your project’s pages: each person who does is one active user that day.', testId: 'activity-active-users-empty' }}
      >
        {(answer) => (
          <figure className="activity-figure">
            <TimeChart points={answer.daily} label="Daily active users" testId="activity-active-users-chart" />
            <figcaption className="muted">
              <span data-testid="activity-active-sessions">{formatNumber(answer.activeSessions)}</span> {answer.activeSessions === 1 ? 'session is' : 'sessions are'} active now; at most{' '}
              {formatNumber(Math.max(0, ...answer.daily.map((d) => d.count)))} active users on one day of this range.
            </figcaption>
          </figure>
        )}
      </QueryView>
    </Card>
  );
}

function MethodsCard({ projectId, from, to }: { projectId: string; from: string; to: string }) {
  const methods = trpc.metrics.attributes.useQuery({ projectId, attribute: 'method', eventType: 'LoginSucceeded', from, to }, { placeholderData: (previous) => previous });
  return (
    <Card title="Sign-ins by method" testId="activity-methods">
      <QueryView
        query={methods}
        skeleton="card"
        errorTitle="Sign-ins by method could not be loaded"
        isEmpty={(answer) => answer.data.length === 0}
        empty={{ title: 'No sign-ins in this range', description: 'Sign in with a password, a code or a social provider to see each method here.', testId: 'activity-methods-empty' }}
      >
        {(answer) => {
          const most = Math.max(1, ...answer.data.map((m) => m.count));
          return (
            <ul className="bar-list" aria-label="Sign-ins by method">
              {answer.data.map((m) => (
                <li key={m.name} data-testid={`activity-method-${m.name}`}>
                  <span className="bar-list-label">{m.name}</span>
                  <span className="bar-list-bar" aria-hidden="true" style={{ width: `${Math.round((m.count / most) * 100)}%` }} />
                  <span className="bar-list-count">{formatNumber(m.count)}</span>
                </li>
              ))}
            </ul>
          );
        }}
      </QueryView>
    </Card>
  );
}
