import { z } from 'zod';
import { uuidSchema } from './common';
import { SAML_PROVIDER_ID } from '../domain/saml-providers';

const projectId = uuidSchema;

const providerId = z
  .string()
  .trim()
  .regex(SAML_PROVIDER_ID, { error: 'Use 1 to 64 lower-case letters, digits, dashes or underscores, starting with a letter or digit' });
const text = (label: string, max = 1024) => z.string().trim().max(max, { error: `${label} has at most ${max} characters` });
const attribute = (label: string) => text(label, 256);

/** IdP metadata is at most 256 KiB (the same limit the parser holds). */
export const METADATA_MAX_CHARS = 256 * 1024;
const metadataXml = z
  .string()
  .max(METADATA_MAX_CHARS, { error: 'The metadata has at most 256 KiB' })
  .refine((v) => v.trim().startsWith('<'), { error: 'The metadata must be XML (an EntityDescriptor)' });
const metadataUrl = text('The metadata URL', 2048).refine((v) => /^https?:\/\/[^\s]+$/.test(v), { error: 'The metadata URL must be an http(s) URL' });

/** Which assertion attribute fills each trait; empty: the usual attribute names (email, mail, givenName, sn, …). */
export const samlAttributeMapSchema = z.object({
  email: attribute('The email attribute').optional(),
  first_name: attribute('The first name attribute').optional(),
  last_name: attribute('The last name attribute').optional(),
  name: attribute('The name attribute').optional(),
});

/** What the metadata says, as the console shows it. */
export const samlMetadataSummarySchema = z.object({
  entity_id: z.string(),
  sso_url: z.string(),
  /** When each signing certificate expires (ISO 8601). */
  valid_to: z.array(z.string()),
  /** The first of them: when sign-in stops working unless the metadata is renewed. */
  certificate_expiry: z.string(),
});
export type SamlMetadataSummary = z.infer<typeof samlMetadataSummarySchema>;

/** A provider as the console shows it: the metadata's summary rather than its XML. */
export const samlProviderSchema = z.object({
  id: z.string(),
  label: z.string(),
  idp_metadata_url: z.string(),
  metadata: samlMetadataSummarySchema.nullable(),
  attributes_map: samlAttributeMapSchema,
  organization_id: z.string().nullable(),
});
export type SamlProviderView = z.infer<typeof samlProviderSchema>;

export const samlProvidersInput = z.object({ projectId });
export const samlProviderInput = z.object({ projectId, id: providerId });

export const samlProviderListOutput = z.object({ revisionId: z.string(), providers: z.array(samlProviderSchema) });
export const samlProviderOutput = samlProviderSchema;

/**
 * Adding a provider (`create`) or editing one: new metadata as XML or as the URL to read it from (one of them
 * when adding; neither keeps the stored metadata on an edit).
 */
export const setSamlProviderInput = z
  .object({
    projectId,
    id: providerId,
    label: text('The label', 64).optional(),
    idp_metadata_xml: metadataXml.optional(),
    idp_metadata_url: z.union([metadataUrl, z.literal('')]).optional(),
    attributes_map: samlAttributeMapSchema.optional(),
    /** The organization whose users sign in with this provider (by their email domain); empty for everyone's button. */
    organization_id: z.union([uuidSchema, z.literal('')]).optional(),
    create: z.boolean().optional(),
  })
  .refine((v) => !(v.idp_metadata_xml && v.idp_metadata_url), { error: 'Give the metadata as XML or as a URL, not both', path: ['idp_metadata_url'] })
  .refine((v) => !v.create || !!v.idp_metadata_xml || !!v.idp_metadata_url, { error: "Give the identity provider's metadata: upload its XML or give its URL", path: ['idp_metadata_url'] });
export type SetSamlProviderInput = z.infer<typeof setSamlProviderInput>;

/** Reads metadata without saving it: the XML, or the URL to fetch it from. */
export const parseSamlMetadataInput = z
  .object({ projectId, xml: metadataXml.optional(), url: metadataUrl.optional() })
  .refine((v) => (v.xml === undefined) !== (v.url === undefined), { error: 'Give the metadata as XML or as a URL (one of them)', path: ['url'] });

export const parseSamlMetadataOutput = samlMetadataSummarySchema;
export const samlOkOutput = z.object({ ok: z.literal(true) });
