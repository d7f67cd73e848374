import { formatNumber } from '../../../../shared/domain/format';
import { isRateLimitTierFeature, MONTHLY_METERED_FEATURES, QUOTA_FEATURE_GROUPS, type QuotaFeatureGroup, type QuotaUsage } from '../../../../shared/domain/quota';
import { Card, PageHeader } from '../../components/Card';
import { QueryView } from '../../components/QueryView';
import { Table } from '../../components/Table';
import { useProject } from '../../shell/ProjectContext';
import { trpc } from '../../trpc';

const GROUP_TITLES: Record<QuotaFeatureGroup, string> = {
  projectsAndUsers: 'Projects and users',
  domainsStreamsAndSeats: 'Domains, streams and seats',
  platform: 'Platform',
  dataLocation: 'Data location',
  federationAndProvisioning: 'Federation and provisioning',
  rateLimitTiers: 'Rate-limit tiers',
};

/** A feature key as words: `collaborator_seats` → "Collaborator seats". */
const featureName = (key: string) => {
  const words = key.replace(/_rate_limit_tier$/, '').replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
};

function limitOf(q: QuotaUsage): string {
  if (!q.feature_available) return 'Not in this plan';
  if (isRateLimitTierFeature(q.feature)) return `Tier ${q.included}`;
  if (q.is_unlimited) return 'Unlimited';
  return formatNumber(q.included);
}

function usedOf(q: QuotaUsage): string {
  if (isRateLimitTierFeature(q.feature) || !q.feature_available) return '—';
  if ((MONTHLY_METERED_FEATURES as readonly string[]).includes(q.feature)) return `${formatNumber(q.used)} this month`;
  if (q.feature === 'daily_active_users') return `${formatNumber(q.used)} today`;
  return formatNumber(q.used);
}

/** /projects/{project}/limits: every quota of the project's plan with its use, and the plan's rate-limit tiers. */
export default function LimitsPage() {
  const project = useProject();
  const quotas = trpc.quota.all.useQuery({ projectId: project.id });
  return (
    <div className="page" data-testid="limits-page">
      <PageHeader title="Limits" description="What the plan paying for this project includes, how much of it is used, and how many requests a second each API may take (its rate-limit tier: the higher, the more)." />
      <QueryView query={quotas} skeleton="table" errorTitle="The limits could not be loaded">
        {(all) => (
          <>
            {(Object.keys(QUOTA_FEATURE_GROUPS) as QuotaFeatureGroup[]).map((group) => {
              const keys = QUOTA_FEATURE_GROUPS[group] as readonly string[];
              const rows = all.filter((q) => keys.includes(q.feature));
              return (
                <Card key={group} title={GROUP_TITLES[group]} testId={`limits-${group}`}>
                  <Table
                    caption={GROUP_TITLES[group]}
                    rows={rows}
                    rowKey={(q) => q.feature}
                    columns={[
                      { key: 'feature', header: 'Feature', render: (q) => featureName(q.feature) },
                      { key: 'limit', header: isRateLimitTierFeature(keys[0] ?? '') ? 'Tier' : 'Included', render: limitOf },
                      { key: 'used', header: 'Used', render: usedOf },
                    ]}
                  />
                </Card>
              );
            })}
          </>
        )}
      </QueryView>
    </div>
  );
}
