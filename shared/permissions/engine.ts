/**
 * Permission checks and expansion over a project's relation tuples and its permission rules, with the semantics of
 * Ory Keto (non-strict mode, its default):
 *
 * - `namespace:object#relation@subject` holds when the tuple is stored (direct), when the relation's permit holds
 *   (its rewrite), or when some stored tuple `namespace:object#relation@set` points at a subject set `set` whose
 *   members include the subject (subject-set expansion);
 * - every hop spends depth; a check that runs out of depth is undecided, which is "not allowed";
 * - a check that takes more steps than its budget stops with an error (cyclic permits), and no subject set is
 *   expanded twice in one check.
 *
 * The engine reads tuples through `TupleReader`, one query per step; it can record every step it took, which is how
 * the console explains an answer.
 */
import { findRelation, type Namespace, type RelationTuple, type Rewrite, type Subject, type SubjectSet } from './model';

export interface SubjectSetHolding {
  set: SubjectSet;
  /** Whether the checked subject is stored directly in the set (`set.namespace:set.object#set.relation@subject`). */
  holds: boolean;
}

export interface TupleReader {
  /** Whether `namespace:object#r@subject` is stored for one of `relations`. */
  hasTuple(namespace: string, object: string, relations: readonly string[], subject: Subject): Promise<boolean>;
  /** The subject sets stored as subjects of `namespace:object#relation`, at most `limit`. */
  subjectSets(namespace: string, object: string, relation: string, limit: number): Promise<SubjectSet[]>;
  /** Like `subjectSets`, with whether `subject` is stored directly in each set. */
  subjectSetsHolding(namespace: string, object: string, relation: string, subject: Subject, limit: number): Promise<SubjectSetHolding[]>;
  /** The tuples of `namespace:object#relation`, at most `limit`, in a stable order. */
  tuplesOf(namespace: string, object: string, relation: string, limit: number): Promise<RelationTuple[]>;
}

export interface EngineLimits {
  /** Keto's `limit.max_read_depth`: a request may ask for less, never more. */
  maxReadDepth: number;
  /** Keto's `limit.max_read_width`: subject sets expanded per hop. */
  maxReadWidth: number;
  /** Steps one check may take in all before it is abandoned. */
  maxSteps: number;
  /** Checks nested inside each other before a check is abandoned as a cycle of permits (Keto allows 1,000 steps on a path, about three per nested check). */
  maxNestedSteps: number;
  /** Keto's `limit.max_batch_check_size`. */
  maxBatchCheckSize: number;
  /** Tuples one expansion returns at most. */
  maxExpandNodes: number;
}

export const DEFAULT_LIMITS: EngineLimits = {
  maxReadDepth: 5,
  maxReadWidth: 100,
  maxSteps: 10_000,
  maxNestedSteps: 300,
  maxBatchCheckSize: 10,
  maxExpandNodes: 1_000,
};

export type Membership = 'member' | 'not_member' | 'unknown';
export type Limitation = 'max-depth-exceeded' | 'max-width-exceeded';

/** One step of a check, as the debugger shows it. */
export interface TraceNode {
  /**
   * - `check`: whether the subject has `relation` on the object (children: the ways it could);
   * - `direct`: the tuple itself is stored (`tuple` is it when found);
   * - `rule`: the relation's permit, with `rule` its text form; children: its parts;
   * - `and` / `or` / `not`: parts of a permit;
   * - `traverse`: `this.related.R.traverse(x => x.P)`; children: one `check` per object reached, `tuple` the link;
   * - `subject-set`: a stored tuple points at a subject set; child: the check in that set;
   * - `limit`: the check went no deeper (`limitation`).
   */
  kind: 'check' | 'direct' | 'rule' | 'and' | 'or' | 'not' | 'computed' | 'traverse' | 'subject-set' | 'limit';
  namespace: string;
  object: string;
  relation: string;
  result: Membership;
  /** The stored tuple this step stands on, if any. */
  tuple?: RelationTuple;
  rule?: string;
  limitation?: Limitation;
  children: TraceNode[];
}

export interface CheckResult {
  membership: Membership;
  limitation?: Limitation;
  trace?: TraceNode;
}

/** Keto's answer when a check takes too many steps (422). */
export class CheckNotCompletedError extends Error {
  readonly reason =
    'The check was aborted after too many resolution steps. This usually indicates a cyclic permit reference in the namespace configuration.';
  constructor() {
    super('The check could not be completed');
  }
}

export interface CheckOptions {
  /** Keto's `max-depth`: 0 or above the global limit means the global limit. */
  maxDepth?: number;
  /** Record every step, for the debugger. */
  trace?: boolean;
}

interface Outcome {
  membership: Membership;
  limitation?: Limitation;
  node?: TraceNode;
}

const NOT_MEMBER: Outcome = { membership: 'not_member' };

export function clampDepth(requested: number | undefined, limits: EngineLimits): number {
  return !requested || requested <= 0 || requested > limits.maxReadDepth ? limits.maxReadDepth : requested;
}

export class PermissionEngine {
  constructor(
    private readonly namespaces: readonly Namespace[],
    private readonly reader: TupleReader,
    private readonly limits: EngineLimits = DEFAULT_LIMITS,
  ) {}

  async check(tuple: RelationTuple, options: CheckOptions = {}): Promise<CheckResult> {
    const run = new CheckRun(this.namespaces, this.reader, this.limits, options.trace === true);
    if (!this.namespaces.some((n) => n.name === tuple.namespace)) {
      // Keto answers "not allowed" for a namespace it does not know.
      return { membership: 'not_member', ...(options.trace ? { trace: run.leaf('check', tuple, 'not_member') } : {}) };
    }
    const outcome = await run.isAllowed(tuple, clampDepth(options.maxDepth, this.limits), false);
    return { membership: outcome.membership, ...(outcome.limitation ? { limitation: outcome.limitation } : {}), ...(outcome.node ? { trace: outcome.node } : {}) };
  }

  async allowed(tuple: RelationTuple, maxDepth?: number): Promise<boolean> {
    return (await this.check(tuple, maxDepth === undefined ? {} : { maxDepth })).membership === 'member';
  }

  /** Keto's batch check: one answer per tuple, in order; a failed check answers with its error. */
  async batchCheck(tuples: readonly RelationTuple[], maxDepth?: number): Promise<{ allowed: boolean; error?: string }[]> {
    const results: { allowed: boolean; error?: string }[] = [];
    for (const tuple of tuples) {
      try {
        results.push({ allowed: await this.allowed(tuple, maxDepth) });
      } catch (error) {
        if (!(error instanceof CheckNotCompletedError)) throw error;
        results.push({ allowed: false, error: error.message });
      }
    }
    return results;
  }

  async expand(set: SubjectSet, maxDepth?: number): Promise<ExpandTree> {
    const builder = new TreeBuilder(this.reader, this.limits);
    return builder.build({ set }, clampDepth(maxDepth, this.limits));
  }
}

class CheckRun {
  private steps = 0;
  private nested = 0;
  private readonly visited = new Set<string>();

  constructor(
    private readonly namespaces: readonly Namespace[],
    private readonly reader: TupleReader,
    private readonly limits: EngineLimits,
    private readonly tracing: boolean,
  ) {}

  leaf(kind: TraceNode['kind'], tuple: { namespace: string; object: string; relation: string }, result: Membership, extra: Partial<TraceNode> = {}): TraceNode {
    return { kind, namespace: tuple.namespace, object: tuple.object, relation: tuple.relation, result, children: [], ...extra };
  }

  private step(): void {
    if (++this.steps > this.limits.maxSteps) throw new CheckNotCompletedError();
  }

  private depthReached(tuple: RelationTuple): Outcome {
    return {
      membership: 'unknown',
      limitation: 'max-depth-exceeded',
      ...(this.tracing ? { node: this.leaf('limit', tuple, 'unknown', { limitation: 'max-depth-exceeded' }) } : {}),
    };
  }

  private node(kind: TraceNode['kind'], tuple: { namespace: string; object: string; relation: string }, outcome: Outcome, children: (TraceNode | undefined)[], extra: Partial<TraceNode> = {}): Outcome {
    if (!this.tracing) return outcome;
    return {
      ...outcome,
      node: {
        ...this.leaf(kind, tuple, outcome.membership, extra),
        ...(outcome.limitation ? { limitation: outcome.limitation } : {}),
        children: children.filter((c): c is TraceNode => c !== undefined),
      },
    };
  }

  /** Runs steps one after the other until one decides: a member for a union, a non-member for an intersection. */
  private async combine(mode: 'or' | 'and', steps: (() => Promise<Outcome>)[]): Promise<{ outcome: Outcome; children: TraceNode[] }> {
    const children: TraceNode[] = [];
    if (steps.length === 0) return { outcome: NOT_MEMBER, children };
    let limitation: Limitation | undefined;
    for (const step of steps) {
      const outcome = await step();
      if (outcome.node) children.push(outcome.node);
      if (mode === 'or' && outcome.membership === 'member') return { outcome: { membership: 'member' }, children };
      if (mode === 'and' && outcome.membership === 'not_member') return { outcome: NOT_MEMBER, children };
      if (outcome.membership === 'unknown') limitation ??= outcome.limitation ?? 'max-depth-exceeded';
    }
    if (limitation) return { outcome: { membership: 'unknown', limitation }, children };
    return { outcome: mode === 'or' ? NOT_MEMBER : { membership: 'member' }, children };
  }

  async isAllowed(tuple: RelationTuple, depth: number, skipDirect: boolean): Promise<Outcome> {
    this.step();
    if (++this.nested > this.limits.maxNestedSteps) throw new CheckNotCompletedError();
    try {
      return await this.isAllowedStep(tuple, depth, skipDirect);
    } finally {
      this.nested--;
    }
  }

  private async isAllowedStep(tuple: RelationTuple, depth: number, skipDirect: boolean): Promise<Outcome> {
    if (depth <= 0) return this.depthReached(tuple);
    const relation = findRelation(this.namespaces, tuple.namespace, tuple.relation);
    const steps: (() => Promise<Outcome>)[] = [];
    if (relation?.rewrite) {
      const rewrite = relation.rewrite;
      steps.push(async () => {
        const outcome = await this.rewrite(rewrite, tuple, depth);
        return this.node('rule', tuple, outcome, [outcome.node], { rule: `${tuple.namespace}.${tuple.relation}: ${ruleText(rewrite)}` });
      });
    }
    if (!skipDirect) steps.push(() => this.direct(tuple, [tuple.relation], depth));
    steps.push(() => this.expandSubject(tuple, depth));
    const { outcome, children } = await this.combine('or', steps);
    return this.node('check', tuple, outcome, children);
  }

  private async direct(tuple: RelationTuple, relations: string[], depth: number): Promise<Outcome> {
    this.step();
    if (depth <= 0) return this.depthReached(tuple);
    const found = await this.reader.hasTuple(tuple.namespace, tuple.object, relations, tuple.subject);
    if (!this.tracing) return found ? { membership: 'member' } : NOT_MEMBER;
    // With several relations, the first that holds is the one the debugger names.
    let stored: RelationTuple | undefined;
    if (found) {
      for (const relation of relations) {
        if (relations.length === 1 || (await this.reader.hasTuple(tuple.namespace, tuple.object, [relation], tuple.subject))) {
          stored = { ...tuple, relation };
          break;
        }
      }
    }
    return this.node('direct', { ...tuple, relation: relations.join(', ') }, found ? { membership: 'member' } : NOT_MEMBER, [], stored ? { tuple: stored } : {});
  }

  private async rewrite(rewrite: Rewrite, tuple: RelationTuple, depth: number): Promise<Outcome> {
    this.step();
    if (depth <= 0) return this.depthReached(tuple);
    const operation = rewrite.type === 'and' ? 'and' : 'or';
    const children = rewrite.type === 'and' || rewrite.type === 'or' ? rewrite.children : [rewrite];
    const steps: (() => Promise<Outcome>)[] = [];
    if (operation === 'or') {
      // As Keto: the relations a union names are first looked up together, then each is checked in full.
      const computed = children.filter((c): c is Extract<Rewrite, { type: 'computed' }> => c.type === 'computed').map((c) => c.relation);
      if (computed.length > 0) {
        steps.push(() => this.direct(tuple, computed, depth));
        for (const relation of computed) {
          steps.push(async () => {
            const outcome = await this.isAllowed({ ...tuple, relation }, depth - 1, true);
            return this.node('computed', tuple, outcome, [outcome.node], { rule: ruleText({ type: 'computed', relation }) });
          });
        }
      }
    }
    for (const child of children) {
      if (operation === 'or' && child.type === 'computed') continue;
      steps.push(() => this.child(child, tuple, child.type === 'and' || child.type === 'or' ? depth - 1 : depth));
    }
    const combined = await this.combine(operation, steps);
    return this.node(operation, tuple, combined.outcome, combined.children, { rule: ruleText(rewrite) });
  }

  private async child(child: Rewrite, tuple: RelationTuple, depth: number): Promise<Outcome> {
    switch (child.type) {
      case 'and':
      case 'or':
        return this.rewrite(child, tuple, depth);
      case 'computed': {
        this.step();
        const outcome = await this.isAllowed({ ...tuple, relation: child.relation }, depth, false);
        return this.node('computed', tuple, outcome, [outcome.node], { rule: ruleText(child) });
      }
      case 'traverse':
        return this.traverse(child, tuple, depth);
      case 'not': {
        this.step();
        const inner = await this.child(child.child, tuple, depth);
        const membership: Membership = inner.membership === 'member' ? 'not_member' : inner.membership === 'not_member' ? 'member' : 'unknown';
        return this.node('not', tuple, { membership, ...(inner.limitation ? { limitation: inner.limitation } : {}) }, [inner.node], { rule: ruleText(child) });
      }
    }
  }

  private async traverse(rewrite: Extract<Rewrite, { type: 'traverse' }>, tuple: RelationTuple, depth: number): Promise<Outcome> {
    this.step();
    if (depth <= 0) return this.depthReached(tuple);
    const sets = await this.reader.subjectSets(tuple.namespace, tuple.object, rewrite.relation, this.limits.maxSteps);
    const steps = sets.map((set) => async () => {
      const target: RelationTuple = { namespace: set.namespace, object: set.object, relation: rewrite.computedRelation, subject: tuple.subject };
      const outcome = await this.isAllowed(target, depth - 1, false);
      return this.node('traverse', target, outcome, [outcome.node], {
        tuple: { namespace: tuple.namespace, object: tuple.object, relation: rewrite.relation, subject: { set } },
      });
    });
    const combined = await this.combine('or', steps);
    return this.node('traverse', tuple, combined.outcome, combined.children, { rule: ruleText(rewrite) });
  }

  private async expandSubject(tuple: RelationTuple, depth: number): Promise<Outcome> {
    this.step();
    if (depth <= 0) return this.depthReached(tuple);
    const all = await this.reader.subjectSetsHolding(tuple.namespace, tuple.object, tuple.relation, tuple.subject, this.limits.maxReadWidth + 1);
    const holding = all.find((r) => r.holds);
    const link = (set: SubjectSet): RelationTuple => ({ namespace: tuple.namespace, object: tuple.object, relation: tuple.relation, subject: { set } });
    if (holding) {
      const member: RelationTuple = { ...holding.set, subject: tuple.subject };
      return this.node('subject-set', tuple, { membership: 'member' }, [this.tracing ? this.leaf('direct', holding.set, 'member', { tuple: member }) : undefined], { tuple: link(holding.set) });
    }
    if (all.length === 0) return NOT_MEMBER;
    if (depth <= 1) return this.depthReached(tuple);
    const sets = all.slice(0, this.limits.maxReadWidth);
    const steps: (() => Promise<Outcome>)[] = [];
    for (const { set } of sets) {
      const key = `${set.namespace}\u0000${set.object}\u0000${set.relation}`;
      if (this.visited.has(key)) continue;
      this.visited.add(key);
      steps.push(async () => {
        const outcome = await this.isAllowed({ ...set, subject: tuple.subject }, depth - 1, true);
        return this.node('subject-set', tuple, outcome, [outcome.node], { tuple: link(set) });
      });
    }
    const combined = await this.combine('or', steps);
    if (all.length > this.limits.maxReadWidth && combined.outcome.membership !== 'member') {
      return { membership: 'unknown', limitation: 'max-width-exceeded', ...(combined.children[0] ? { node: combined.children[0] } : {}) };
    }
    if (!this.tracing) return combined.outcome;
    // Each expanded set stands as a node of its own under the check.
    if (combined.children.length === 1) return { ...combined.outcome, node: combined.children[0]! };
    return this.node('or', tuple, combined.outcome, combined.children, { rule: 'members of the subject sets stored here' });
  }
}

/** The permission-language text of a rule, for the debugger. */
export function ruleText(rewrite: Rewrite): string {
  switch (rewrite.type) {
    case 'computed':
      return `this.permits.${rewrite.relation}(ctx)`;
    case 'traverse':
      return `this.related.${rewrite.relation}.traverse((x) => x.permits.${rewrite.computedRelation}(ctx))`;
    case 'not':
      return `!${wrap(rewrite.child)}`;
    case 'and':
    case 'or':
      return rewrite.children.map((c) => (c.type === 'and' || c.type === 'or' ? `(${ruleText(c)})` : ruleText(c))).join(rewrite.type === 'and' ? ' && ' : ' || ');
  }
}

function wrap(rewrite: Rewrite): string {
  return rewrite.type === 'and' || rewrite.type === 'or' ? `(${ruleText(rewrite)})` : ruleText(rewrite);
}

// ---- expand ----

/** Keto's expansion tree: the subjects of a subject set, with nested sets expanded in turn. */
export interface ExpandTree {
  type: 'union' | 'leaf';
  subject: Subject;
  children: ExpandTree[];
  /** Why a set was not expanded further. */
  truncated?: 'depth' | 'cycle' | 'size';
}

class TreeBuilder {
  private nodes = 0;
  private readonly visited = new Set<string>();

  constructor(
    private readonly reader: TupleReader,
    private readonly limits: EngineLimits,
  ) {}

  async build(subject: Subject, depth: number): Promise<ExpandTree> {
    const set = subject.set;
    if (!set || set.relation === '') {
      this.nodes++;
      return { type: 'leaf', subject, children: [] };
    }
    const key = `${set.namespace}\u0000${set.object}\u0000${set.relation}`;
    if (this.visited.has(key)) return { type: 'union', subject, children: [], truncated: 'cycle' };
    if (this.nodes >= this.limits.maxExpandNodes) return { type: 'union', subject, children: [], truncated: 'size' };
    if (depth <= 1) return { type: 'union', subject, children: [], truncated: 'depth' };
    this.visited.add(key);
    try {
      const tuples = await this.reader.tuplesOf(set.namespace, set.object, set.relation, this.limits.maxExpandNodes - this.nodes);
      const children: ExpandTree[] = [];
      for (const tuple of tuples) {
        if (tuple.subject.set && tuple.subject.set.relation !== '') {
          this.nodes++;
          children.push(await this.build(tuple.subject, depth - 1));
        } else {
          this.nodes++;
          children.push({ type: 'leaf', subject: tuple.subject, children: [] });
        }
      }
      return { type: 'union', subject, children };
    } finally {
      this.visited.delete(key);
    }
  }
}

