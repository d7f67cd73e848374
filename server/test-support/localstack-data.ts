/**
 * The local stack's storage, for BFF tests that arrange or inspect what only the database shows (a plan in
 * force, a stored revision). BFF code itself reaches the stack over HTTP only; tests come through this door.
 */
export { setPlan } from '../../localstack/billing/quota';
export { findProject, findRevision } from '../../localstack/project/store';
/** The local SAML identity provider (loopback only, keys made at start), whose metadata SAML providers are given. */
export { startSamlTestIdp, type SamlTestIdp } from '../../localstack/saml-idp/idp';
