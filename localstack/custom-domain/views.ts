import type { CustomDomainView } from '../../shared/schemas/custom-domains';
import type { CustomDomainRow } from './schema';

/** A row as Ory's customDomain. */
export function customDomainView(row: CustomDomainRow): CustomDomainView {
  return {
    id: row.id,
    hostname: row.hostname,
    cookie_domain: row.cookie_domain,
    custom_ui_base_url: row.custom_ui_base_url,
    cors_enabled: row.cors_enabled,
    cors_allowed_origins: row.cors_allowed_origins,
    ssl_status: row.ssl_status as CustomDomainView['ssl_status'],
    verification_status: row.verification_status,
    verification_errors: row.verification_errors,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}
