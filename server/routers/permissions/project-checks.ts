import { CheckNotCompletedError, DEFAULT_LIMITS, PermissionEngine, UnknownRelationError, type TraceNode } from '../../../shared/permissions/engine';
import {
  expandTreeSchema,
  permissionCheckInput,
  permissionCheckOutput,
  permissionExpandInput,
  type ExplainNode,
} from '../../../shared/schemas/relationships';
import { TRPCError } from '@trpc/server';
import { dataPlaneProcedure } from '../../trpc/init';
import { projectRules } from '../permission-rules/rules';
import { relationshipOfTuple, RemoteTupleReader } from './remote-tuples';
import { subjectBody } from '../relationships/query';

function explainNode(node: TraceNode): ExplainNode {
  return {
    kind: node.kind,
    namespace: node.namespace,
    object: node.object,
    relation: node.relation,
    result: node.result,
    ...(node.tuple ? { tuple: relationshipOfTuple(node.tuple) } : {}),
    ...(node.rule ? { rule: node.rule } : {}),
    ...(node.limitation ? { limitation: node.limitation } : {}),
    children: node.children.map(explainNode),
  };
}

/**
 * A question to the project's own rules (spec §7): the permission service answers it, and the console's
 * engine walks the same rules and tuples to show why.
 */
export const check = dataPlaneProcedure('backoffice.project.read')
  .input(permissionCheckInput)
  .output(permissionCheckOutput)
  .query(async ({ ctx, input }) => {
    const { data } = await ctx.apis.permission.postCheckPermission({
      ...(input.maxDepth ? { maxDepth: input.maxDepth } : {}),
      postCheckPermissionBody: { namespace: input.namespace, object: input.object, relation: input.relation, ...subjectBody(input.subject) },
    });
    const rules = await projectRules(ctx);
    const engine = new PermissionEngine(rules.namespaces, new RemoteTupleReader(ctx.apis.relationship), DEFAULT_LIMITS, rules.mode);
    const tuple = { namespace: input.namespace, object: input.object, relation: input.relation, subject: input.subject };
    try {
      const { membership, trace } = await engine.check(tuple, { trace: true, ...(input.maxDepth ? { maxDepth: input.maxDepth } : {}) });
      const explanation = trace ?? { kind: 'check' as const, namespace: tuple.namespace, object: tuple.object, relation: tuple.relation, result: membership, children: [] };
      return { allowed: data.allowed, explanation: explainNode(explanation), explanationDisagrees: (membership === 'member') !== data.allowed };
    } catch (error) {
      if (error instanceof CheckNotCompletedError) throw new TRPCError({ code: 'UNPROCESSABLE_CONTENT', message: `${error.message}: ${error.reason}` });
      // The rules changed between the answer and its explanation: the relation is gone from them now.
      if (error instanceof UnknownRelationError) throw new TRPCError({ code: 'BAD_REQUEST', message: `${error.reason}: the permission rules do not declare it.` });
      throw error;
    }
  });

export const expand = dataPlaneProcedure('backoffice.project.read')
  .input(permissionExpandInput)
  .output(expandTreeSchema)
  .query(async ({ ctx, input }) => {
    const { data } = await ctx.apis.permission.expandPermissions({
      namespace: input.namespace,
      object: input.object,
      relation: input.relation,
      ...(input.maxDepth ? { maxDepth: input.maxDepth } : {}),
    });
    return data;
  });
