import { TRPCError } from '@trpc/server';
import type { RelationshipApi } from '@ory/client';
import { overviewOf } from '../../../shared/permissions/overview';
import {
  deleteMatchingInput,
  deleteMatchingOutput,
  okOutput,
  projectInput,
  relationshipInput,
  relationshipSchema,
  relationshipsCountOutput,
  relationshipsListInput,
  relationshipsListOutput,
  relationshipsQueryInput,
} from '../../../shared/schemas/relationships';
import { z } from 'zod';
import { namespaceOverviewSchema } from '../../../shared/schemas/relationships';
import { dataPlaneProcedure, router } from '../../trpc/init';
import { projectRules } from '../permission-rules/rules';
import { relationQuery, subjectBody, subjectFilter } from './query';

const PAGE_SIZE = 50;
/** Counting pages through the matches; beyond this many the count says "at least". */
const COUNT_PAGE = 1000;
const COUNT_CAP = 10_000;

const read = dataPlaneProcedure('backoffice.project.read');
const write = dataPlaneProcedure('backoffice.project.write');

async function countMatching(relationship: RelationshipApi, query: ReturnType<typeof relationQuery>) {
  let count = 0;
  let pageToken: string | undefined;
  do {
    const { data } = await relationship.getRelationships({ ...query, pageSize: COUNT_PAGE, ...(pageToken ? { pageToken } : {}) });
    count += data.relation_tuples?.length ?? 0;
    pageToken = data.next_page_token || undefined;
  } while (pageToken && count < COUNT_CAP);
  return { count, capped: pageToken !== undefined };
}

/**
 * A project's relationships (relation tuples) on its data plane: members read them, writers create and delete
 * them. Deleting by query is confirmed with the count the caller saw.
 */
export const relationshipsRouter = router({
  list: read
    .input(relationshipsListInput)
    .output(relationshipsListOutput)
    .query(async ({ ctx, input }) => {
      const { data } = await ctx.apis.relationship.getRelationships({
        ...relationQuery(input),
        pageSize: PAGE_SIZE,
        ...(input.pageToken ? { pageToken: input.pageToken } : {}),
      });
      return { relationships: data.relation_tuples ?? [], nextPageToken: data.next_page_token || null };
    }),

  create: write
    .input(relationshipInput)
    .output(relationshipSchema)
    .mutation(async ({ ctx, input }) => {
      const { data } = await ctx.apis.relationship.createRelationship({
        createRelationshipBody: { namespace: input.namespace, object: input.object, relation: input.relation, ...subjectBody(input.subject) },
      });
      return data;
    }),

  delete: write
    .input(relationshipInput)
    .output(okOutput)
    .mutation(async ({ ctx, input }) => {
      await ctx.apis.relationship.deleteRelationships(relationQuery({ ...input, ...subjectFilter(input.subject) }));
      return { ok: true as const };
    }),

  count: read
    .input(relationshipsQueryInput)
    .output(relationshipsCountOutput)
    .query(async ({ ctx, input }) => countMatching(ctx.apis.relationship, relationQuery(input))),

  deleteMatching: write
    .input(deleteMatchingInput)
    .output(deleteMatchingOutput)
    .mutation(async ({ ctx, input }) => {
      const query = relationQuery(input);
      const { count } = await countMatching(ctx.apis.relationship, query);
      if (count !== input.expectedCount) {
        throw new TRPCError({
          code: 'CONFLICT',
          message: `${count} relationship${count === 1 ? '' : 's'} match${count === 1 ? 'es' : ''} now, not ${input.expectedCount}: review the list and confirm again.`,
        });
      }
      await ctx.apis.relationship.deleteRelationships(query);
      return { deleted: count };
    }),

  namespaces: read
    .input(projectInput)
    .output(z.object({ namespaces: z.array(namespaceOverviewSchema) }))
    .query(async ({ ctx }) => {
      const [{ data }, rules] = await Promise.all([ctx.apis.relationship.listRelationshipNamespaces(), projectRules(ctx)]);
      const overview = overviewOf(rules.namespaces);
      const names = (data.namespaces ?? []).flatMap((n) => (n.name ? [n.name] : []));
      return { namespaces: names.map((name) => overview.find((n) => n.name === name) ?? { name, relations: [] }) };
    }),
});
