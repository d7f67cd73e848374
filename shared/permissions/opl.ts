/**
 * The Ory Permission Language: the TypeScript subset in which a project writes its permission rules. The text is
 * parsed by the TypeScript compiler; this module reads the compiler's syntax tree into namespaces, relations and
 * permits, and answers what it cannot read, or what does not type-check, the way Ory Keto's `/opl/syntax/check`
 * does: a message with the line and column of its start and end.
 *
 * Supported, as Keto documents it:
 *   class Name implements Namespace {
 *     related: { rel: (A | SubjectSet<B, "members">)[]; other: Array<A>; … }
 *     permits = { p: (ctx: Context): boolean => <expression>, … }
 *   }
 * where an expression combines `this.related.R.includes(ctx.subject)`, `this.permits.P(ctx)`,
 * `this.related.R.traverse((x) => x.permits.P(ctx))` (or `x.related.P.includes(ctx.subject)`) with `&&`, `||`,
 * `!` and parentheses. `&&` binds tighter than `||`, as TypeScript reads it.
 */
import ts from 'typescript';
import type { Namespace, Relation, RelationType, Rewrite } from './model';

/** Keto's source position: note the capital L, which is how Keto's JSON spells it. */
export interface SourcePosition {
  Line: number;
  column: number;
}

export interface OplProblem {
  message: string;
  start: SourcePosition;
  end: SourcePosition;
}

export interface ParsedOpl {
  namespaces: Namespace[];
  errors: OplProblem[];
}

/** At most this many nested `(` and `!` in one permit. */
export const EXPRESSION_NESTING_MAX_DEPTH = 10;
/** How deep `SubjectSet<…>` types are followed when checking a traverse. */
const SUBJECT_SET_TYPE_CHECK_MAX_DEPTH = 10;

/** Keto's line/column for a source offset: lines count from 1, columns from the start of the line. */
export function sourcePosition(input: string, offset: number): SourcePosition {
  let line = 1;
  let column = 0;
  let rest = offset;
  for (const char of input) {
    column++;
    rest--;
    if (rest <= 0) break;
    if (char === '\n') {
      line++;
      column = 0;
    }
  }
  return { Line: line, column };
}

class FatalProblem extends Error {}

type Check = () => void;

interface Span {
  start: number;
  end: number;
}

export function parseOpl(source: string): ParsedOpl {
  return new OplReader(source).read();
}

class OplReader {
  private readonly namespaces: Namespace[] = [];
  private readonly errors: OplProblem[] = [];
  private readonly checks: Check[] = [];
  private readonly file: ts.SourceFile;
  /** The class whose members are being read. */
  private reading = '';

  constructor(private readonly source: string) {
    this.file = ts.createSourceFile('namespaces.ts', source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  }

  read(): ParsedOpl {
    const syntax = syntaxDiagnostics(this.file);
    const first = syntax[0];
    if (first) {
      const start = first.start ?? 0;
      this.problem({ start, end: start + (first.length ?? 0) }, ts.flattenDiagnosticMessageText(first.messageText, '\n'));
      return { namespaces: [], errors: this.errors };
    }
    try {
      for (const statement of this.file.statements) this.statement(statement);
    } catch (error) {
      if (!(error instanceof FatalProblem)) throw error;
    }
    if (this.errors.length === 0) for (const check of this.checks) check();
    return { namespaces: this.errors.length === 0 ? this.namespaces : [], errors: this.errors };
  }

  // ---- problems ----

  private span(node: ts.Node): Span {
    return { start: node.getStart(this.file), end: node.getEnd() };
  }

  private problem(span: Span, message: string): void {
    this.errors.push({
      message,
      start: sourcePosition(this.source, span.start),
      end: sourcePosition(this.source, span.end),
    });
  }

  private fatal(at: ts.Node | Span, message: string): never {
    this.problem('kind' in at ? this.span(at) : at, message);
    throw new FatalProblem(message);
  }

  /** The first token of a node as written, for "got …" in messages. */
  private firstToken(node: ts.Node): string {
    const text = this.source.slice(node.getStart(this.file), node.getEnd());
    return /^[A-Za-z_$][\w$]*/.exec(text)?.[0] ?? text.slice(0, 1);
  }

  private text(node: ts.Node): string {
    return this.source.slice(node.getStart(this.file), node.getEnd());
  }

  // ---- structure ----

  private statement(statement: ts.Statement): void {
    if (ts.isImportDeclaration(statement) || ts.isEmptyStatement(statement)) return;
    if (ts.isClassDeclaration(statement)) return this.namespaceClass(statement);
    this.fatal(statement, `expected "class", got ${JSON.stringify(this.firstToken(statement))}`);
  }

  private namespaceClass(node: ts.ClassDeclaration): void {
    if (!node.name) this.fatal(node, 'expected identifier, got "{"');
    const name = node.name.text;
    const heritage = node.heritageClauses ?? [];
    const implementsClause = heritage.find((h) => h.token === ts.SyntaxKind.ImplementsKeyword);
    const extendsClause = heritage.find((h) => h.token === ts.SyntaxKind.ExtendsKeyword);
    if (extendsClause) this.fatal(this.keywordSpan(extendsClause, 'extends'), 'expected "implements", got "extends"');
    if (!implementsClause) {
      const brace = this.source.indexOf('{', node.name.getEnd());
      this.fatal({ start: brace, end: brace + 1 }, 'expected "implements", got "{"');
    }
    const [implemented, ...more] = implementsClause.types;
    if (!implemented || this.text(implemented) !== 'Namespace') {
      this.fatal(implemented ?? implementsClause, `expected "Namespace", got ${JSON.stringify(implemented ? this.text(implemented) : '{')}`);
    }
    if (more[0]) this.fatal({ start: implemented.getEnd(), end: implemented.getEnd() + 1 }, 'expected "{", got ","');

    const namespace: Namespace = { name, relations: [] };
    this.reading = name;
    for (const member of node.members) {
      if (ts.isSemicolonClassElement(member)) continue;
      const memberName = member.name && (ts.isIdentifier(member.name) || ts.isStringLiteral(member.name)) ? member.name.text : undefined;
      if (ts.isPropertyDeclaration(member) && memberName === 'related') {
        this.related(member, namespace);
      } else if (ts.isPropertyDeclaration(member) && memberName === 'permits') {
        this.permits(member, namespace);
      } else {
        this.fatal(member.name ?? member, `expected 'permits' or 'related', got ${JSON.stringify(memberName ?? this.firstToken(member))}`);
      }
    }
    this.namespaces.push(namespace);
  }

  private keywordSpan(clause: ts.HeritageClause, keyword: string): Span {
    const start = clause.getStart(this.file);
    return { start, end: start + keyword.length };
  }

  private related(member: ts.PropertyDeclaration, namespace: Namespace): void {
    if (member.initializer || !member.type) {
      const at = member.initializer ?? member.name;
      this.fatal(at, `expected ":", got ${JSON.stringify(member.initializer ? '=' : this.firstToken(at))}`);
    }
    if (!ts.isTypeLiteralNode(member.type)) this.fatal(member.type, `expected "{", got ${JSON.stringify(this.firstToken(member.type))}`);
    for (const entry of member.type.members) {
      if (!ts.isPropertySignature(entry) || !entry.type || !(ts.isIdentifier(entry.name) || ts.isStringLiteral(entry.name))) {
        this.fatal(entry, `expected identifier or '}', got ${JSON.stringify(this.firstToken(entry))}`);
      }
      const relation: Relation = { name: entry.name.text, types: this.relationTypes(entry.type) };
      namespace.relations.push(relation);
    }
  }

  /** `T[]`, `(A | B)[]`, `SubjectSet<N, "r">[]`, `Array<A | B>`. */
  private relationTypes(node: ts.TypeNode): RelationType[] {
    if (ts.isArrayTypeNode(node)) {
      const element = ts.isParenthesizedTypeNode(node.elementType) ? node.elementType.type : node.elementType;
      return this.typeUnion(element);
    }
    if (ts.isTypeReferenceNode(node) && ts.isIdentifier(node.typeName) && node.typeName.text === 'Array' && node.typeArguments?.length === 1) {
      return this.typeUnion(node.typeArguments[0]!);
    }
    this.fatal(node, `expected an array of subject types such as "User[]" or "(User | SubjectSet<Group, \\"members\\">)[]", got ${JSON.stringify(this.text(node))}`);
  }

  private typeUnion(node: ts.TypeNode): RelationType[] {
    if (ts.isUnionTypeNode(node)) return node.types.flatMap((t) => this.typeUnion(t));
    if (ts.isParenthesizedTypeNode(node)) return this.typeUnion(node.type);
    if (ts.isTypeReferenceNode(node) && ts.isIdentifier(node.typeName)) {
      const name = node.typeName;
      if (name.text === 'SubjectSet') {
        const [target, relation] = node.typeArguments ?? [];
        if (!target || !ts.isTypeReferenceNode(target) || !ts.isIdentifier(target.typeName)) {
          this.fatal(target ?? node, 'expected identifier, got ' + JSON.stringify(target ? this.firstToken(target) : '>'));
        }
        if (!relation || !ts.isLiteralTypeNode(relation) || !ts.isStringLiteral(relation.literal)) {
          this.fatal(relation ?? node, 'expected identifier, got ' + JSON.stringify(relation ? this.firstToken(relation) : '>'));
        }
        if ((node.typeArguments?.length ?? 0) > 2) this.fatal(node.typeArguments![2]!, 'expected ">", got ","');
        const targetName = target.typeName.text;
        const relationName = relation.literal.text;
        const targetNode = target;
        const relationNode = relation;
        this.checks.push(() => this.checkNamespaceHasRelation(targetNode, targetName, relationNode, relationName));
        return [{ namespace: targetName, relation: relationName }];
      }
      if (node.typeArguments) this.fatal({ start: node.typeArguments.pos - 1, end: node.typeArguments.pos }, 'expected "[", got "<"');
      this.checks.push(() => this.checkNamespaceExists(name, name.text));
      return [{ namespace: name.text }];
    }
    this.fatal(node, `expected identifier, got ${JSON.stringify(this.firstToken(node))}`);
  }

  private permits(member: ts.PropertyDeclaration, namespace: Namespace): void {
    if (!member.initializer) this.fatal(member.type ?? member.name, `expected "=", got ${JSON.stringify(member.type ? ':' : this.firstToken(member.name))}`);
    if (member.type) this.fatal(member.type, 'expected "=", got ":"');
    if (!ts.isObjectLiteralExpression(member.initializer)) {
      this.fatal(member.initializer, `expected "{", got ${JSON.stringify(this.firstToken(member.initializer))}`);
    }
    for (const property of member.initializer.properties) {
      if (!ts.isPropertyAssignment(property) || !(ts.isIdentifier(property.name) || ts.isStringLiteral(property.name))) {
        this.fatal(property, `expected identifier or '}', got ${JSON.stringify(this.firstToken(property))}`);
      }
      const rewrite = this.permit(property.initializer);
      namespace.relations.push({ name: property.name.text, types: [], rewrite });
    }
  }

  /** `(ctx: Context): boolean => expression` */
  private permit(node: ts.Expression): Rewrite {
    if (!ts.isArrowFunction(node)) this.fatal(node, `expected "(", got ${JSON.stringify(this.firstToken(node))}`);
    const [parameter, extra] = node.parameters;
    if (!parameter || !ts.isIdentifier(parameter.name) || parameter.name.text !== 'ctx') {
      this.fatal(parameter ?? node, `expected "ctx", got ${JSON.stringify(parameter ? this.firstToken(parameter) : ')')}`);
    }
    if (extra) this.fatal({ start: parameter.getEnd(), end: parameter.getEnd() + 1 }, 'expected ")", got ","');
    if (parameter.type && this.text(parameter.type) !== 'Context') {
      this.fatal(parameter.type, `expected "Context", got ${JSON.stringify(this.text(parameter.type))}`);
    }
    if (node.type && node.type.kind !== ts.SyntaxKind.BooleanKeyword) {
      this.fatal(node.type, `expected "boolean", got ${JSON.stringify(this.text(node.type))}`);
    }
    if (ts.isBlock(node.body)) this.fatal({ start: node.body.getStart(this.file), end: node.body.getStart(this.file) + 1 }, 'expected an expression, got "{"');
    return simplify(this.expression(node.body, EXPRESSION_NESTING_MAX_DEPTH));
  }

  private tooDeep(at: ts.Node): never {
    this.fatal(at, `expression nested too deeply; maximal nesting depth is ${EXPRESSION_NESTING_MAX_DEPTH}`);
  }

  private expression(node: ts.Expression, depth: number): Rewrite {
    if (ts.isParenthesizedExpression(node)) {
      if (depth - 1 <= 0) this.tooDeep(node.expression);
      return this.expression(node.expression, depth - 1);
    }
    if (ts.isPrefixUnaryExpression(node) && node.operator === ts.SyntaxKind.ExclamationToken) {
      if (depth - 1 <= 0) this.tooDeep(node.operand);
      if (ts.isParenthesizedExpression(node.operand)) {
        if (depth - 2 <= 0) this.tooDeep(node.operand.expression);
        return { type: 'not', child: this.expression(node.operand.expression, depth - 2) };
      }
      return { type: 'not', child: this.expression(node.operand, depth - 1) };
    }
    if (ts.isBinaryExpression(node)) {
      const operator = node.operatorToken.kind;
      if (operator === ts.SyntaxKind.AmpersandAmpersandToken || operator === ts.SyntaxKind.BarBarToken) {
        return {
          type: operator === ts.SyntaxKind.AmpersandAmpersandToken ? 'and' : 'or',
          children: [this.expression(node.left, depth), this.expression(node.right, depth)],
        };
      }
      this.fatal(node.operatorToken, `expected "&&" or "||", got ${JSON.stringify(node.operatorToken.getText(this.file))}`);
    }
    if (ts.isCallExpression(node)) return this.call(node);
    this.fatal(node, `expected "this", got ${JSON.stringify(this.firstToken(node))}`);
  }

  /** The names of a chain `a.b["c"].d` with their nodes, or the first link that is neither. */
  private chain(node: ts.Expression): { root: ts.Expression; links: { name: string; node: ts.Node }[] } {
    const links: { name: string; node: ts.Node }[] = [];
    let current = node;
    for (;;) {
      if (ts.isPropertyAccessExpression(current)) {
        links.unshift({ name: current.name.text, node: current.name });
        current = current.expression;
      } else if (ts.isElementAccessExpression(current) && ts.isStringLiteral(current.argumentExpression)) {
        links.unshift({ name: current.argumentExpression.text, node: current.argumentExpression });
        current = current.expression;
      } else {
        return { root: current, links };
      }
    }
  }

  private call(node: ts.CallExpression): Rewrite {
    const { root, links } = this.chain(node.expression);
    if (root.kind !== ts.SyntaxKind.ThisKeyword) this.fatal(root, `expected "this", got ${JSON.stringify(this.firstToken(root))}`);
    const [verb, relation, method] = links;
    if (!verb) this.fatal(node.expression, 'expected ".", got "("');
    if (verb.name !== 'related' && verb.name !== 'permits') {
      this.fatal(verb.node, `expected 'related' or 'permits', got ${JSON.stringify(verb.name)}`);
    }
    if (!relation) this.fatal(verb.node, 'expected ".", got "("');
    const namespace = this.currentNamespace();
    if (verb.name === 'permits') {
      if (method) this.fatal(method.node, `expected "(", got "."`);
      this.expectArguments(node, ['ctx']);
      this.checks.push(() => this.checkCurrentNamespaceHasRelation(namespace, relation.node, relation.name));
      return { type: 'computed', relation: relation.name };
    }
    if (!method) this.fatal(relation.node, 'expected ".", got "("');
    if (links.length > 3) this.fatal(links[3]!.node, `expected "(", got "."`);
    if (method.name === 'includes') {
      this.expectArguments(node, ['ctx.subject']);
      this.checks.push(() => this.checkCurrentNamespaceHasRelation(namespace, relation.node, relation.name));
      return { type: 'computed', relation: relation.name };
    }
    if (method.name === 'traverse') {
      const computedRelation = this.traversal(node);
      this.checks.push(() => this.checkAllRelationTypesHaveRelation(namespace, relation.node, relation.name, computedRelation));
      this.checks.push(() => this.checkCurrentNamespaceHasRelation(namespace, relation.node, relation.name));
      return { type: 'traverse', relation: relation.name, computedRelation };
    }
    this.fatal(method.node, `expected 'traverse' or 'includes', got ${JSON.stringify(method.name)}`);
  }

  /** `(x) => x.permits.P(ctx)` or `(x) => x.related.P.includes(ctx.subject)`: the relation P. */
  private traversal(node: ts.CallExpression): string {
    const [callback, extra] = node.arguments;
    if (!callback || !ts.isArrowFunction(callback)) {
      this.fatal(callback ?? node, `expected identifier, got ${JSON.stringify(callback ? this.firstToken(callback) : ')')}`);
    }
    if (extra) this.fatal(extra, `expected ")", got ${JSON.stringify(this.firstToken(extra))}`);
    const [parameter, more] = callback.parameters;
    if (!parameter || !ts.isIdentifier(parameter.name)) this.fatal(parameter ?? callback, 'expected identifier, got ")"');
    if (more) this.fatal(more, 'expected ")", got ","');
    const argument = parameter.name.text;
    if (ts.isBlock(callback.body) || !ts.isCallExpression(callback.body)) {
      this.fatal(callback.body, `expected ${JSON.stringify(argument)}, got ${JSON.stringify(this.firstToken(callback.body))}`);
    }
    const body = callback.body;
    const { root, links } = this.chain(body.expression);
    if (!ts.isIdentifier(root) || root.text !== argument) {
      this.fatal(root, `expected ${JSON.stringify(argument)}, got ${JSON.stringify(this.firstToken(root))}`);
    }
    const [verb, relation, method] = links;
    if (!verb || (verb.name !== 'related' && verb.name !== 'permits')) {
      this.fatal(verb?.node ?? body, `expected 'related' or 'permits', got ${JSON.stringify(verb?.name ?? '(')}`);
    }
    if (!relation) this.fatal(verb.node, 'expected ".", got "("');
    if (verb.name === 'permits') {
      if (method) this.fatal(method.node, 'expected "(", got "."');
      this.expectArguments(body, ['ctx']);
    } else {
      if (!method || method.name !== 'includes' || links.length > 3) {
        this.fatal(method?.node ?? relation.node, `expected "includes", got ${JSON.stringify(method?.name ?? '(')}`);
      }
      this.expectArguments(body, ['ctx.subject']);
    }
    return relation.name;
  }

  private expectArguments(node: ts.CallExpression, expected: string[]): void {
    const given = node.arguments.map((a) => this.text(a).replace(/\s+/g, ''));
    if (given.length !== expected.length || given.some((g, i) => g !== expected[i])) {
      const at = node.arguments[0] ?? node;
      this.fatal(at, `expected ${JSON.stringify(expected.join(', '))}, got ${JSON.stringify(given.join(', ') || ')')}`);
    }
  }

  private currentNamespace(): string {
    return this.reading;
  }

  // ---- type checks, run once the whole text has been read ----

  private find(namespace: string): Namespace | undefined {
    return this.namespaces.find((n) => n.name === namespace);
  }

  private checkNamespaceExists(node: ts.Node, namespace: string): void {
    if (!this.find(namespace)) this.problem(this.span(node), `namespace ${JSON.stringify(namespace)} was not declared`);
  }

  private checkNamespaceHasRelation(namespaceNode: ts.Node, namespace: string, relationNode: ts.Node, relation: string): void {
    const found = this.find(namespace);
    if (!found) return this.problem(this.span(namespaceNode), `namespace ${JSON.stringify(namespace)} was not declared`);
    if (!found.relations.some((r) => r.name === relation)) {
      this.problem(this.relationSpan(relationNode), `namespace ${JSON.stringify(namespace)} did not declare relation ${JSON.stringify(relation)}`);
    }
  }

  private checkCurrentNamespaceHasRelation(namespace: string, relationNode: ts.Node, relation: string): void {
    const found = this.find(namespace);
    if (!found) return this.problem(this.span(relationNode), `namespace ${JSON.stringify(namespace)} was not declared`);
    if (!found.relations.some((r) => r.name === relation)) {
      this.problem(this.relationSpan(relationNode), `namespace ${JSON.stringify(namespace)} did not declare relation ${JSON.stringify(relation)}`);
    }
  }

  private checkAllRelationTypesHaveRelation(namespace: string, node: ts.Node, relationType: string, relation: string, depth = SUBJECT_SET_TYPE_CHECK_MAX_DEPTH): void {
    if (depth < 0) return this.problem(this.span(node), 'could not typecheck deeply nested SubjectSet further');
    const declared = this.find(namespace)?.relations.find((r) => r.name === relationType);
    if (!declared) {
      return this.problem(this.span(node), `relation ${JSON.stringify(relationType)} was not declared in namespace ${JSON.stringify(namespace)}`);
    }
    for (const type of declared.types) {
      if (type.relation === undefined) {
        if (!this.find(type.namespace)?.relations.some((r) => r.name === relation)) {
          this.problem(this.span(node), `relation ${JSON.stringify(relation)} was not declared in namespace ${JSON.stringify(type.namespace)}`);
        }
      } else {
        this.checkAllRelationTypesHaveRelation(type.namespace, node, type.relation, relation, depth - 1);
      }
    }
  }

  /** A string literal's span is its content, without the quotes, as Keto's lexer reads it. */
  private relationSpan(node: ts.Node): Span {
    const span = this.span(node);
    if (ts.isStringLiteral(node) || ts.isLiteralTypeNode(node)) return { start: span.start + 1, end: span.end - 1 };
    return span;
  }

}

function syntaxDiagnostics(file: ts.SourceFile): readonly ts.Diagnostic[] {
  const host: ts.CompilerHost = {
    getSourceFile: (name) => (name === file.fileName ? file : undefined),
    getDefaultLibFileName: () => 'lib.d.ts',
    writeFile: () => undefined,
    getCurrentDirectory: () => '/',
    getCanonicalFileName: (name) => name,
    useCaseSensitiveFileNames: () => true,
    getNewLine: () => '\n',
    fileExists: (name) => name === file.fileName,
    readFile: () => undefined,
  };
  const program = ts.createProgram({ rootNames: [file.fileName], options: { noLib: true, noResolve: true, types: [] }, host });
  return program.getSyntacticDiagnostics(file);
}

/** `or(or(a, b), c)` reads as `or(a, b, c)`; a group of one is its member. */
function simplify(rewrite: Rewrite): Rewrite {
  if (rewrite.type === 'not') return { type: 'not', child: simplify(rewrite.child) };
  if (rewrite.type !== 'and' && rewrite.type !== 'or') return rewrite;
  const children: Rewrite[] = [];
  for (const child of rewrite.children.map(simplify)) {
    if (child.type === rewrite.type) children.push(...child.children);
    else children.push(child);
  }
  return children.length === 1 ? children[0]! : { type: rewrite.type, children };
}
