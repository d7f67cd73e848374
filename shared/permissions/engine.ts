/**
 * Permission checks and expansion over a project's relation tuples and its permission rules, with the semantics of
 * Ory Keto (non-strict mode, its default, unless the project turns strict mode on):
 *
 * - `namespace:object#relation@subject` holds when the tuple is stored (direct), when the relation's permit holds
 *   (its rewrite), or when some stored tuple `namespace:object#relation@set` points at a subject set `set` whose
 *   members include the subject (subject-set expansion);
 * - every hop spends depth; a check that runs out of depth is undecided, which is "not allowed";
 * - a check that takes more steps than its budget stops with an error (cyclic permits), and no subject set is
 *   expanded twice in one check;
 * - a relation the namespace does not declare is refused (400), when the namespace declares any;
 * - in strict mode, a tuple stored under a permit's name or with a subject its relation does not declare is
 *   ignored, subject sets are followed only where the relation declares `SubjectSet<…>` types, and a check cut
 *   short by a limit answers an error instead of "not allowed".
 *
 * The engine reads tuples through `TupleReader`, one query per step; it can record every step it took, which is how
 * the console explains an answer.
 */
import { type Namespace, type Relation, type RelationTuple, type Rewrite, type Subject, type SubjectSet } from './model';

export interface SubjectSetHolding {
  set: SubjectSet;
  /** Whether the checked subject is stored directly in the set (`set.namespace:set.object#set.relation@subject`). */
  holds: boolean;
  /**
   * Whether the set has subject sets of its own (`lookahead` only; unknown when absent). A set without any is
   * fully known from `holds`: a check expanding it needs no read of its own.
   */
  open?: boolean;
}

/** A `SubjectSet<namespace, "relation">` type a relation declares, in strict mode. */
export interface SubjectSetType {
  namespace: string;
  relation: string;
  /** Whether a subject may be stored directly in such a set (the set's relation is no permit, and declares it). */
  allowsDirect: boolean;
}

export interface TupleReader {
  /** Whether `namespace:object#r@subject` is stored for one of `relations`. */
  hasTuple(namespace: string, object: string, relations: readonly string[], subject: Subject): Promise<boolean>;
  /** The subject sets stored as subjects of `namespace:object#relation`, at most `limit`. */
  subjectSets(namespace: string, object: string, relation: string, limit: number): Promise<SubjectSet[]>;
  /**
   * Like `subjectSets`, with whether `subject` is stored directly in each set; with `types`, only sets of those
   * (namespace, relation) pairs.
   */
  subjectSetsHolding(namespace: string, object: string, relation: string, subject: Subject, limit: number, types?: readonly SubjectSetType[]): Promise<SubjectSetHolding[]>;
  /** The tuples of `namespace:object#relation`, at most `limit`, in a stable order. */
  tuplesOf(namespace: string, object: string, relation: string, limit: number): Promise<RelationTuple[]>;
  /**
   * Optional, one round trip for what `hasTuple` and `subjectSetsHolding` would answer for each of `relations` of
   * `namespace:object` and a subject id: whether it is stored directly, and the first `limit` subject sets (as
   * `subjectSetsHolding`, in the same order; fewer than `limit` are all there are, as `subjectSets` lists them),
   * each best with whether it is `open`.
   */
  lookahead?(namespace: string, object: string, relations: readonly string[], subjectId: string, limit: number): Promise<Map<string, Lookahead>>;
}

/** What one relation of an object holds for a subject id: a direct tuple, and its subject sets. */
export interface Lookahead {
  direct: boolean;
  sets: SubjectSetHolding[];
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
  /** Keto's `limit.max_expand_size`: tuples one expansion returns at most. */
  maxExpandNodes: number;
}

/** Keto's feature flags a project may set in its permission config. */
export interface EngineMode {
  /** `feature_flags.strict_mode` (or the older `namespaces.experimental_strict_mode`). */
  strict: boolean;
  /** `feature_flags.expand_rewrites`: expansion follows the permits' rules. */
  expandRewrites: boolean;
}

export const DEFAULT_MODE: EngineMode = { strict: false, expandRewrites: true };

export const DEFAULT_LIMITS: EngineLimits = {
  maxReadDepth: 5,
  maxReadWidth: 100,
  maxSteps: 10_000,
  maxNestedSteps: 300,
  maxBatchCheckSize: 10,
  maxExpandNodes: 4_000,
};

export type Membership = 'member' | 'not_member' | 'unknown';
export type Limitation = 'max_depth_exceeded' | 'max_width_exceeded';

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

/** Keto's answer when a check takes too many steps, or (strict mode) when a limit cut it short (422). */
export class CheckNotCompletedError extends Error {
  constructor(
    readonly reason = 'The check was aborted after too many resolution steps. This usually indicates a cyclic permit reference in the namespace configuration.',
  ) {
    super('The check could not be completed');
  }
}

/** Keto's answer for a relation its namespace does not declare (400, herodot's bad request with this reason). */
export class UnknownRelationError extends Error {
  readonly reason: string;
  constructor(relation: string) {
    super('The request was malformed or contained invalid parameters');
    this.reason = `relation ${JSON.stringify(relation)} does not exist`;
  }
}

/** What an expansion's root asks for, in strict mode, when it names no relation with types or a rule: Keto's 404. */
export class NoRelationTupleError extends Error {
  constructor() {
    super('no relation tuple found');
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
    private readonly mode: EngineMode = DEFAULT_MODE,
  ) {}

  async check(tuple: RelationTuple, options: CheckOptions = {}): Promise<CheckResult> {
    const run = new CheckRun(this.namespaces, this.reader, this.limits, options.trace === true, this.mode.strict);
    if (!this.namespaces.some((n) => n.name === tuple.namespace)) {
      // Keto answers "not allowed" for a namespace it does not know.
      return { membership: 'not_member', ...(options.trace ? { trace: run.leaf('check', tuple, 'not_member') } : {}) };
    }
    const outcome = await run.isAllowed(tuple, clampDepth(options.maxDepth, this.limits), false);
    return { membership: outcome.membership, ...(outcome.limitation ? { limitation: outcome.limitation } : {}), ...(outcome.node ? { trace: outcome.node } : {}) };
  }

  /**
   * Keto's answer to a check: whether the subject is a member. In strict mode a check a limit cut short is no
   * answer but an error naming the limit.
   */
  async allowed(tuple: RelationTuple, maxDepth?: number): Promise<boolean> {
    const result = await this.check(tuple, maxDepth === undefined ? {} : { maxDepth });
    if (this.mode.strict && result.membership === 'unknown' && result.limitation) throw new CheckNotCompletedError(result.limitation);
    return result.membership === 'member';
  }

  /**
   * Keto's batch check: one answer per tuple, in order; a failed check answers with its error, and in strict mode
   * a check a limit cut short names the limit.
   */
  async batchCheck(tuples: readonly RelationTuple[], maxDepth?: number): Promise<{ allowed: boolean; error?: string }[]> {
    const results: { allowed: boolean; error?: string }[] = [];
    for (const tuple of tuples) {
      try {
        const result = await this.check(tuple, maxDepth === undefined ? {} : { maxDepth });
        const limited = this.mode.strict && result.membership === 'unknown' && result.limitation;
        results.push({ allowed: result.membership === 'member', ...(limited ? { error: result.limitation } : {}) });
      } catch (error) {
        if (!(error instanceof CheckNotCompletedError) && !(error instanceof UnknownRelationError)) throw error;
        results.push({ allowed: false, error: error.message });
      }
    }
    return results;
  }

  /**
   * Keto's expansion of a subject set into the subjects that have it, following the permits' rules when the mode
   * says so. Throws `NoRelationTupleError` when strict mode finds nothing to expand at the root.
   */
  async expand(set: SubjectSet, maxDepth?: number): Promise<ExpandTree> {
    const builder = new TreeBuilder(this.namespaces, this.reader, this.limits, this.mode);
    const tree = await builder.root(set, clampDepth(maxDepth, this.limits));
    if (!tree) throw new NoRelationTupleError();
    return tree;
  }
}

class CheckRun {
  private steps = 0;
  private nested = 0;
  private readonly visited = new Set<string>();
  /** Lookups read ahead in this check (one snapshot of the tuples, as Keto reads a check). */
  private readonly ahead = new Map<string, Lookahead>();

  constructor(
    private readonly namespaces: readonly Namespace[],
    private readonly reader: TupleReader,
    private readonly limits: EngineLimits,
    private readonly tracing: boolean,
    private readonly strict: boolean,
  ) {}

  /**
   * The declared relation a check asks for: undefined when the namespace is unknown, declares nothing, or the
   * relation is empty; a relation a namespace with declarations lacks is refused, as Keto refuses it.
   */
  private relationOf(namespace: string, relation: string): Relation | undefined {
    if (relation === '') return undefined;
    const declared = this.namespaces.find((n) => n.name === namespace);
    if (!declared || declared.relations.length === 0) return undefined;
    const found = declared.relations.find((r) => r.name === relation);
    if (!found) throw new UnknownRelationError(relation);
    return found;
  }

  /** The declared relation, or undefined for any that is not (as Keto's union shortcut reads it, without refusing). */
  private relationOrNone(namespace: string, relation: string): Relation | undefined {
    try {
      return this.relationOf(namespace, relation);
    } catch {
      return undefined;
    }
  }

  /** The `SubjectSet<…>` types a relation declares, each with whether the subject may be stored in it directly. */
  private subjectSetTypes(relation: Relation | undefined, subject: Subject): SubjectSetType[] {
    if (!relation) return [];
    return relation.types.flatMap((type) =>
      type.relation === undefined || type.relation === ''
        ? []
        : [{ namespace: type.namespace, relation: type.relation, allowsDirect: allowsDirectMember(this.relationOf(type.namespace, type.relation), subject) }],
    );
  }

  leaf(kind: TraceNode['kind'], tuple: { namespace: string; object: string; relation: string }, result: Membership, extra: Partial<TraceNode> = {}): TraceNode {
    return { kind, namespace: tuple.namespace, object: tuple.object, relation: tuple.relation, result, children: [], ...extra };
  }

  private step(): void {
    if (++this.steps > this.limits.maxSteps) throw new CheckNotCompletedError();
  }

  private depthReached(tuple: RelationTuple): Outcome {
    return {
      membership: 'unknown',
      limitation: 'max_depth_exceeded',
      ...(this.tracing ? { node: this.leaf('limit', tuple, 'unknown', { limitation: 'max_depth_exceeded' }) } : {}),
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
      if (outcome.membership === 'unknown') limitation ??= outcome.limitation ?? 'max_depth_exceeded';
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
    const relation = this.relationOf(tuple.namespace, tuple.relation);
    const steps: (() => Promise<Outcome>)[] = [];
    if (relation?.rewrite) {
      const rewrite = relation.rewrite;
      steps.push(async () => {
        const outcome = await this.rewrite(rewrite, tuple, depth);
        return this.node('rule', tuple, outcome, [outcome.node], { rule: `${tuple.namespace}.${tuple.relation}: ${ruleText(rewrite)}` });
      });
    }
    // Strict mode looks only where the rules allow a tuple: no direct tuple under a permit or with an undeclared
    // subject set, and subject sets followed only where the relation declares their types.
    if (!skipDirect && (!this.strict || allowsDirectMember(relation, tuple.subject))) steps.push(() => this.direct(tuple, [tuple.relation], depth));
    if (!this.strict) steps.push(() => this.expandSubject(tuple, depth));
    else {
      const types = this.subjectSetTypes(relation, tuple.subject);
      if (types.length > 0) steps.push(() => this.expandSubject(tuple, depth, types));
    }
    const { outcome, children } = await this.combine('or', steps);
    return this.node('check', tuple, outcome, children);
  }

  private aheadKey(namespace: string, object: string, relation: string): string {
    return `${namespace}\u0000${object}\u0000${relation}`;
  }

  /**
   * Reads what `relations` of the object hold for the subject in one round trip, when the reader can and the answer
   * is the same as looking each up when needed: a subject id, outside strict mode (which filters the sets by type).
   * The same round trip reads every other relation the checked relation's rule may read at this object (the
   * relations it names, the links it traverses), so a check reads each object it reaches once. A subject set found
   * with no subject sets of its own is known whole from that read: checking it later reads nothing.
   */
  private async readAhead(tuple: RelationTuple, relations: readonly string[]): Promise<Lookahead[] | null> {
    if (!this.reader.lookahead || this.strict || tuple.subject.id === undefined) return null;
    const missing = relations.filter((r) => !this.ahead.has(this.aheadKey(tuple.namespace, tuple.object, r)));
    if (missing.length > 0) {
      const wanted = new Set(missing);
      for (const relation of relationsReadAt(this.namespaces, tuple.namespace, tuple.relation)) {
        if (!this.ahead.has(this.aheadKey(tuple.namespace, tuple.object, relation))) wanted.add(relation);
      }
      const read = await this.reader.lookahead(tuple.namespace, tuple.object, [...wanted], tuple.subject.id, this.limits.maxReadWidth + 1);
      for (const relation of wanted) this.ahead.set(this.aheadKey(tuple.namespace, tuple.object, relation), read.get(relation) ?? { direct: false, sets: [] });
      for (const relation of wanted) {
        for (const { set, holds, open } of read.get(relation)?.sets ?? []) {
          const key = this.aheadKey(set.namespace, set.object, set.relation);
          // `holds` is this set's direct tuple for the subject; with no subject sets, it is all the set holds.
          if (open === false && set.relation !== '' && !this.ahead.has(key)) this.ahead.set(key, { direct: holds, sets: [] });
        }
      }
    }
    return relations.map((r) => this.ahead.get(this.aheadKey(tuple.namespace, tuple.object, r))!);
  }

  private async direct(tuple: RelationTuple, relations: string[], depth: number): Promise<Outcome> {
    this.step();
    if (depth <= 0) return this.depthReached(tuple);
    const ahead = await this.readAhead(tuple, relations);
    const found = ahead ? ahead.some((a) => a.direct) : await this.reader.hasTuple(tuple.namespace, tuple.object, relations, tuple.subject);
    if (!this.tracing) return found ? { membership: 'member' } : NOT_MEMBER;
    // With several relations, the first that holds is the one the debugger names.
    let stored: RelationTuple | undefined;
    if (found) {
      for (const [i, relation] of relations.entries()) {
        const holds = ahead ? ahead[i]!.direct : relations.length === 1 || (await this.reader.hasTuple(tuple.namespace, tuple.object, [relation], tuple.subject));
        if (holds) {
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
        const direct = this.strict ? computed.filter((r) => allowsDirectMember(this.relationOrNone(tuple.namespace, r), tuple.subject)) : computed;
        if (direct.length > 0) steps.push(() => this.direct(tuple, direct, depth));
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
    // The link's sets come with the object's read ahead when all of them fit in it; else they are read in full.
    const [ahead] = (await this.readAhead(tuple, [rewrite.relation])) ?? [];
    const sets =
      ahead && ahead.sets.length <= this.limits.maxReadWidth
        ? ahead.sets.map((s) => s.set)
        : await this.reader.subjectSets(tuple.namespace, tuple.object, rewrite.relation, this.limits.maxSteps);
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

  private async expandSubject(tuple: RelationTuple, depth: number, types?: SubjectSetType[]): Promise<Outcome> {
    this.step();
    if (depth <= 0) return this.depthReached(tuple);
    const ahead = types ? undefined : (await this.readAhead(tuple, [tuple.relation]))?.[0];
    const found = ahead ? ahead.sets : await this.reader.subjectSetsHolding(tuple.namespace, tuple.object, tuple.relation, tuple.subject, this.limits.maxReadWidth + 1, types);
    // With declared types, a subject stored in a set counts only where the set's relation allows it directly.
    const all = types
      ? found.map((r) => ({ ...r, holds: r.holds && types.some((t) => t.allowsDirect && t.namespace === r.set.namespace && t.relation === r.set.relation) }))
      : found;
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
      return { membership: 'unknown', limitation: 'max_width_exceeded', ...(combined.children[0] ? { node: combined.children[0] } : {}) };
    }
    if (!this.tracing) return combined.outcome;
    // Each expanded set stands as a node of its own under the check.
    if (combined.children.length === 1) return { ...combined.outcome, node: combined.children[0]! };
    return this.node('or', tuple, combined.outcome, combined.children, { rule: 'members of the subject sets stored here' });
  }
}

/** Per rules: the relations a check of `namespace#relation` may read at its object, by `namespace\u0000relation`. */
const readAtCache = new WeakMap<readonly Namespace[], Map<string, readonly string[]>>();

/**
 * The relations a check of `relation` may read at its own object: itself (its tuple and its subject sets), and
 * through its permit's rule the relations it names (each in turn) and the links it traverses.
 */
export function relationsReadAt(namespaces: readonly Namespace[], namespace: string, relation: string): readonly string[] {
  let byRelation = readAtCache.get(namespaces);
  if (!byRelation) readAtCache.set(namespaces, (byRelation = new Map()));
  const cacheKey = `${namespace}\u0000${relation}`;
  const cached = byRelation.get(cacheKey);
  if (cached) return cached;
  const declared = namespaces.find((n) => n.name === namespace);
  const found = new Set<string>();
  const walked = new Set<string>();
  const visit = (name: string) => {
    if (name === '' || walked.has(name)) return;
    walked.add(name);
    found.add(name);
    const rewrite = declared?.relations.find((r) => r.name === name)?.rewrite;
    if (rewrite) walk(rewrite);
  };
  const walk = (rewrite: Rewrite): void => {
    switch (rewrite.type) {
      case 'computed':
        return visit(rewrite.relation);
      case 'traverse':
        found.add(rewrite.relation);
        return;
      case 'not':
        return walk(rewrite.child);
      case 'and':
      case 'or':
        return rewrite.children.forEach(walk);
    }
  };
  visit(relation);
  const relations = [...found];
  byRelation.set(cacheKey, relations);
  return relations;
}

/**
 * Whether the rules allow `subject` to be stored directly under `relation`: never under a permit; a subject id
 * anywhere else; a subject set only where the relation declares its namespace and relation.
 */
export function allowsDirectMember(relation: Relation | undefined, subject: Subject): boolean {
  if (!subject.set) return relation?.rewrite === undefined;
  if (!relation || relation.rewrite) return false;
  const set = subject.set;
  return relation.types.some((t) => t.namespace === set.namespace && (t.relation ?? '') === set.relation);
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

/**
 * Keto's expansion tree: who has a relation, and through what. `union` and `intersection` nodes stand for a subject
 * set (its tuples, or a permit's `||` / `&&`), `exclusion` for a `!`, `leaf` for a subject. A node of a compound
 * part of a rule (`a && (b || c)`: the `(b || c)`) or of a negation has no subject.
 */
export interface ExpandTree {
  type: 'union' | 'intersection' | 'exclusion' | 'leaf';
  subject: Subject | null;
  children: ExpandTree[];
  /** Why a set was not expanded further. */
  truncated?: 'depth' | 'cycle' | 'size';
}

/** Tuples read per page while expanding a set, as Keto pages them. */
const EXPAND_PAGE = 100;

/** Cheaper parts of a rule first, as Keto orders them: relations, traversals, groups, negations. */
function rewriteCost(rewrite: Rewrite): number {
  switch (rewrite.type) {
    case 'computed':
      return 0;
    case 'traverse':
      return 1;
    case 'and':
    case 'or':
      return 2;
    case 'not':
      return 3;
  }
}

const setKey = (set: SubjectSet) => `${set.namespace}\u0000${set.object}\u0000${set.relation}`;

class TreeBuilder {
  private nodes = 0;
  /** The sets being expanded on the current path: meeting one again is a cycle. */
  private readonly path = new Set<string>();

  constructor(
    private readonly namespaces: readonly Namespace[],
    private readonly reader: TupleReader,
    private readonly limits: EngineLimits,
    private readonly mode: EngineMode,
  ) {}

  private relation(set: SubjectSet): Relation | undefined {
    return this.namespaces.find((n) => n.name === set.namespace)?.relations.find((r) => r.name === set.relation);
  }

  async root(set: SubjectSet, depth: number): Promise<ExpandTree | null> {
    if (this.mode.strict) {
      const relation = this.relation(set);
      if (!relation || (relation.types.length === 0 && !relation.rewrite)) return null;
    }
    return this.subject({ set }, depth);
  }

  private async subject(subject: Subject, depth: number): Promise<ExpandTree | null> {
    const set = subject.set;
    if (!set || set.relation === '') {
      this.nodes++;
      return { type: 'leaf', subject, children: [] };
    }
    const key = setKey(set);
    if (this.path.has(key)) return { type: 'union', subject, children: [], truncated: 'cycle' };
    this.path.add(key);
    try {
      const relation = this.relation(set);
      // Strict mode expands nothing the rules do not declare.
      if (!relation && this.mode.strict) return null;
      if (relation?.rewrite && this.mode.expandRewrites) return await this.rule(set, topLevel(relation.rewrite), depth);
      return await this.stored(set, relation, depth);
    } finally {
      this.path.delete(key);
    }
  }

  private full(): boolean {
    return this.nodes >= this.limits.maxExpandNodes;
  }

  /** Pages of the tuples of `namespace:object#relation`, as many as the node budget still takes, and whether more remain. */
  private async pages(namespace: string, object: string, relation: string): Promise<{ tuples: RelationTuple[]; more: boolean }> {
    const remaining = Math.max(this.limits.maxExpandNodes - this.nodes, 1);
    const limit = Math.ceil(remaining / EXPAND_PAGE) * EXPAND_PAGE;
    const rows = await this.reader.tuplesOf(namespace, object, relation, limit + 1);
    return { tuples: rows.slice(0, limit), more: rows.length > limit };
  }

  /** A set's stored tuples, each subject set among them expanded in turn. */
  private async stored(set: SubjectSet, relation: Relation | undefined, depth: number): Promise<ExpandTree> {
    const tree: ExpandTree = { type: 'union', subject: { set }, children: [] };
    if (this.full()) return { ...tree, truncated: 'size' };
    if (depth <= 1) return { ...tree, truncated: 'depth' };
    const { tuples, more } = await this.pages(set.namespace, set.object, set.relation);
    const pending: ExpandTree[] = [];
    for (const tuple of tuples) {
      // Strict mode keeps only subjects of a type the relation declares.
      if (this.mode.strict && relation) {
        const subjectSet = tuple.subject.set;
        if (!subjectSet || !relation.types.some((t) => t.namespace === subjectSet.namespace && (t.relation ?? '') === subjectSet.relation)) continue;
      }
      this.nodes++;
      const child: ExpandTree = { type: tuple.subject.set && tuple.subject.set.relation !== '' ? 'union' : 'leaf', subject: tuple.subject, children: [] };
      tree.children.push(child);
      if (child.type === 'union') pending.push(child);
    }
    if (more && this.full()) tree.truncated = 'size';
    for (const child of pending) {
      const expanded = await this.subject(child.subject!, depth - 1);
      if (expanded) Object.assign(child, expanded);
    }
    return tree;
  }

  /** A permit's rule: `||` and `&&` as union and intersection of their parts, `!` as an exclusion. */
  private async rule(set: SubjectSet, rewrite: Rewrite, depth: number): Promise<ExpandTree | null> {
    switch (rewrite.type) {
      case 'and':
      case 'or': {
        const tree: ExpandTree = { type: rewrite.type === 'and' ? 'intersection' : 'union', subject: { set }, children: [] };
        const parts = rewrite.children.map((child, index) => ({ child, index })).sort((a, b) => rewriteCost(a.child) - rewriteCost(b.child) || a.index - b.index);
        for (const { child } of parts) {
          const built = await this.rule(set, child, depth);
          if (!built) continue;
          if (child.type === 'and' || child.type === 'or') built.subject = null;
          tree.children.push(built);
        }
        return tree;
      }
      case 'computed':
        return this.subject({ set: { namespace: set.namespace, object: set.object, relation: rewrite.relation } }, depth - 1);
      case 'traverse':
        return this.traverse(set, rewrite, depth);
      case 'not': {
        const tree: ExpandTree = { type: 'exclusion', subject: null, children: [] };
        const built = await this.rule(set, rewrite.child, depth);
        if (built) {
          if (rewrite.child.type === 'and' || rewrite.child.type === 'or') built.subject = null;
          tree.children.push(built);
        }
        return tree;
      }
    }
  }

  /** `this.related.R.traverse((x) => x.P)`: the sets stored under R, each expanded at P. */
  private async traverse(set: SubjectSet, rewrite: Extract<Rewrite, { type: 'traverse' }>, depth: number): Promise<ExpandTree> {
    const link: SubjectSet = { namespace: set.namespace, object: set.object, relation: rewrite.relation };
    const tree: ExpandTree = { type: 'union', subject: { set: link }, children: [] };
    if (this.full()) return { ...tree, truncated: 'size' };
    if (depth <= 1) return { ...tree, truncated: 'depth' };
    const { tuples, more } = await this.pages(link.namespace, link.object, link.relation);
    const targets: SubjectSet[] = [];
    for (const tuple of tuples) {
      if (!tuple.subject.set) continue;
      this.nodes++;
      targets.push(tuple.subject.set);
    }
    if (more && this.full()) tree.truncated = 'size';
    for (const target of targets) {
      const built = await this.subject({ set: { namespace: target.namespace, object: target.object, relation: rewrite.computedRelation } }, depth - 1);
      if (built) tree.children.push(built);
    }
    return tree;
  }
}

/** A permit's rule at its top is a group: `this.related.viewers.includes(ctx.subject)` alone is a union of one. */
function topLevel(rewrite: Rewrite): Rewrite {
  return rewrite.type === 'and' || rewrite.type === 'or' ? rewrite : { type: 'or', children: [rewrite] };
}
