import { oauth2Endpoints } from '../../../../shared/domain/oauth2-endpoints';
import { Card, PageHeader } from '../../components/Card';
import { CopyValue } from '../../components/CopyButton';
import { QueryView } from '../../components/QueryView';
import { QUERY_RULES } from '../../lib/query-client';
import { useProject } from '../../shell/ProjectContext';
import { trpc } from '../../trpc';

/** /projects/{project}/oauth/endpoints: every endpoint of the project's OAuth2 server, with copy buttons. */
export default function OAuth2EndpointsPage() {
  const project = useProject();
  const endpoint = trpc.projects.endpoint.useQuery({ projectId: project.id }, QUERY_RULES.project);
  return (
    <div className="page" data-testid="oauth2-endpoints-page">
      <PageHeader title="Endpoints" description="Where this project's OAuth2 and OpenID Connect server answers. Most libraries need only the issuer." />
      <Card>
        <QueryView query={endpoint} errorTitle="The project's API endpoint could not be loaded">
          {({ apiUrl }) =>
            apiUrl ? (
              <dl className="endpoint-list" data-testid="oauth2-endpoints">
                {oauth2Endpoints(apiUrl).map((e) => (
                  <div key={e.id} className="endpoint-row">
                    <dt>{e.label}</dt>
                    <dd>
                      <CopyValue value={e.url} label={`Copy the ${e.label.toLowerCase()} URL`} testId={`oauth2-endpoint-${e.id}`} />
                      <p className="hint">{e.description}</p>
                    </dd>
                  </div>
                ))}
              </dl>
            ) : (
              <p>This deployment has no project API configured, so the project has no OAuth2 endpoints here.</p>
            )
          }
        </QueryView>
      </Card>
    </div>
  );
}
