import { TRPCError } from '@trpc/server';
import {
  parseSamlMetadataInput,
  parseSamlMetadataOutput,
  samlOkOutput,
  samlProviderInput,
  samlProviderListOutput,
  samlProviderOutput,
  samlProvidersInput,
  setSamlProviderInput,
  type SamlProviderView,
} from '../../../shared/schemas/saml-providers';
import { SAML_TRAITS } from '../../../shared/domain/saml-providers';
import { MetadataError, parseIdpMetadata } from '../../../shared/saml-metadata';
import { obj, readMethod, text, writeMethod, type Json } from '../project-config/method-providers';
import { projectProcedure, router } from '../../trpc/init';
import { fetchMetadata, readMetadata, summary } from './metadata';

function view(p: Json): SamlProviderView {
  let metadata: SamlProviderView['metadata'] = null;
  try {
    metadata = summary(parseIdpMetadata(text(p.raw_idp_metadata_xml)));
  } catch (err) {
    if (!(err instanceof MetadataError)) throw err;
  }
  const map = obj(p.attributes_map);
  const attributes_map: SamlProviderView['attributes_map'] = {};
  for (const trait of SAML_TRAITS) if (text(map[trait])) attributes_map[trait] = text(map[trait]);
  return {
    id: text(p.id),
    label: text(p.label),
    idp_metadata_url: text(p.idp_metadata_url),
    metadata,
    attributes_map,
    organization_id: typeof p.organization_id === 'string' && p.organization_id !== '' ? p.organization_id : null,
  };
}

const notFound = (id: string) => new TRPCError({ code: 'NOT_FOUND', message: `The project has no SAML provider "${id}".` });

/** SAML providers of a project (Ory's `selfservice.methods.saml`), spec §2 `/saml`. */
export const samlProvidersRouter = router({
  list: projectProcedure('backoffice.project.read')
    .input(samlProvidersInput)
    .output(samlProviderListOutput)
    .query(async ({ ctx }) => {
      const read = await readMethod(ctx, ctx.projectId, 'saml');
      return { revisionId: read.revisionId, providers: read.providers.map(view) };
    }),

  get: projectProcedure('backoffice.project.read')
    .input(samlProviderInput)
    .output(samlProviderOutput)
    .query(async ({ ctx, input }) => {
      const found = (await readMethod(ctx, ctx.projectId, 'saml')).providers.find((p) => p.id === input.id);
      if (!found) throw notFound(input.id);
      return view(found);
    }),

  /**
   * Adds a provider (`create`) or edits one, keeping the fields the form does not show. New metadata is read
   * (and fetched, from a URL) before anything is written: metadata that cannot be used is refused, not stored.
   * A plan without `saml_sp` is refused by the project (FORBIDDEN, `feature_not_available`).
   */
  set: projectProcedure('backoffice.project.write')
    .input(setSamlProviderInput)
    .output(samlProviderOutput)
    .mutation(async ({ ctx, input }) => {
      const read = await readMethod(ctx, ctx.projectId, 'saml');
      const index = read.providers.findIndex((p) => p.id === input.id);
      if (input.create && index >= 0) throw new TRPCError({ code: 'CONFLICT', message: `A provider with the ID "${input.id}" exists already; pick another ID.` });
      if (!input.create && index < 0) throw notFound(input.id);
      const next: Json = { ...(index >= 0 ? read.providers[index]! : { id: input.id }) };
      const xml = input.idp_metadata_xml ?? (input.idp_metadata_url ? await fetchMetadata(input.idp_metadata_url) : undefined);
      if (xml !== undefined) {
        const metadata = readMetadata(xml);
        next.raw_idp_metadata_xml = xml;
        next.idp_entity_id = metadata.entityId;
        next.idp_sso_url = metadata.ssoUrl;
        if (input.idp_metadata_url) next.idp_metadata_url = input.idp_metadata_url;
        else delete next.idp_metadata_url;
      }
      if (input.label !== undefined) {
        if (input.label === '') delete next.label;
        else next.label = input.label;
      }
      if (input.attributes_map !== undefined) {
        const map: Json = {};
        for (const trait of SAML_TRAITS) if (input.attributes_map[trait]) map[trait] = input.attributes_map[trait];
        next.attributes_map = map;
      }
      if (input.organization_id !== undefined) {
        if (input.organization_id === '') delete next.organization_id;
        else next.organization_id = input.organization_id;
      }
      const after = await writeMethod(ctx, ctx.projectId, 'saml', read, index >= 0 ? `config/providers/${index}` : 'config/providers/-', next, index >= 0 ? 'replace' : 'add');
      const saved = after.providers.find((p) => p.id === input.id);
      if (!saved) throw new TRPCError({ code: 'BAD_GATEWAY', message: 'The project did not keep the provider.' });
      return view(saved);
    }),

  delete: projectProcedure('backoffice.project.write')
    .input(samlProviderInput)
    .output(samlOkOutput)
    .mutation(async ({ ctx, input }) => {
      const read = await readMethod(ctx, ctx.projectId, 'saml');
      const index = read.providers.findIndex((p) => p.id === input.id);
      if (index < 0) throw notFound(input.id);
      await writeMethod(ctx, ctx.projectId, 'saml', read, `config/providers/${index}`, undefined, 'remove');
      return { ok: true as const };
    }),

  /** Reads IdP metadata (XML, or fetched from a URL on this machine) without saving it: what the form's summary shows. */
  parseMetadata: projectProcedure('backoffice.project.read')
    .input(parseSamlMetadataInput)
    .output(parseSamlMetadataOutput)
    .mutation(async ({ input }) => summary(readMetadata(input.xml ?? (await fetchMetadata(input.url!))))),
});
