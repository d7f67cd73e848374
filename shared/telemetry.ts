import { createRequire } from 'node:module';
import { context, isSpanContextValid, propagation, trace, type Context } from '@opentelemetry/api';
import type { SpanExporter } from '@opentelemetry/sdk-trace-node';
import { LogController, type FastifyInstance, type FastifyPluginCallback, type FastifyReply, type FastifyRequest } from 'fastify';

/**
 * OpenTelemetry tracing, off unless started (`OTEL_EXPORTER_OTLP_ENDPOINT`, see server/config.ts). When on:
 * every request of the console and of the local stack gets a span (@fastify/otel), the console's calls to the
 * local stack carry the W3C `traceparent` of the request they serve (so the local stack's span is a child of
 * the console's), every PostgreSQL query gets a span (@opentelemetry/instrumentation-pg), and every log line
 * written inside a request names its `trace_id` and `span_id`. When off, nothing here runs but a check of a flag.
 */

interface Active {
  stop(): Promise<void>;
  /** A fresh @fastify/otel plugin (one per Fastify app, each tagged with its component). */
  plugin(component: string): FastifyPluginCallback;
}

let active: Active | undefined;

/** Whether tracing was started in this process. */
export function tracingOn(): boolean {
  return active !== undefined;
}

export interface TracingOptions {
  /** `service.name` of every span. */
  serviceName: string;
  /** Where spans are sent over OTLP/HTTP (the collector's traces URL, e.g. http://collector:4318/v1/traces). */
  otlpTracesUrl?: string;
  /** Where spans go instead (tests pass an in-memory exporter); spans are then exported one by one at once. */
  exporter?: SpanExporter;
}

/**
 * Starts tracing for the whole process (global tracer provider, AsyncLocalStorage context, W3C trace-context
 * propagation). Call it before the apps are built. Answers a function that flushes the spans and turns it all
 * off again (the process then behaves as if tracing had never started).
 */
export async function startTracing(options: TracingOptions): Promise<() => Promise<void>> {
  if (active) throw new Error('tracing is already on');
  const [sdk, { resourceFromAttributes }, { FastifyOtelInstrumentation }, { PgInstrumentation }] = await Promise.all([
    import('@opentelemetry/sdk-trace-node'),
    import('@opentelemetry/resources'),
    import('@fastify/otel'),
    import('@opentelemetry/instrumentation-pg'),
  ]);
  let processor;
  if (options.exporter) processor = new sdk.SimpleSpanProcessor(options.exporter);
  else {
    const { OTLPTraceExporter } = await import('@opentelemetry/exporter-trace-otlp-http');
    processor = new sdk.BatchSpanProcessor(new OTLPTraceExporter(options.otlpTracesUrl ? { url: options.otlpTracesUrl } : {}));
  }
  const provider = new sdk.NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': options.serviceName }),
    spanProcessors: [processor],
  });
  provider.register();

  // The `pg` module is imported (as ESM) by the database layer, where no require hook sees it: its exports
  // are patched here directly, as bundler integrations of OpenTelemetry do.
  const pgInstrumentation = new PgInstrumentation({ enabled: false, requireParentSpan: true });
  pgInstrumentation.setTracerProvider(provider);
  const require = createRequire(import.meta.url);
  const pgModules: { patch?: (exports: unknown, version?: string) => unknown; unpatch?: (exports: unknown, version?: string) => void; exports: unknown }[] = [];
  const pgPath = require.resolve('pg');
  for (const definition of pgInstrumentation.getModuleDefinitions()) {
    const exports: unknown = definition.name === 'pg' ? require('pg') : createRequire(pgPath)(definition.name);
    definition.patch?.(exports);
    pgModules.push({ patch: definition.patch, unpatch: definition.unpatch, exports });
  }

  const instrumentations: InstanceType<typeof FastifyOtelInstrumentation>[] = [];
  active = {
    plugin(component) {
      const instrumentation = new FastifyOtelInstrumentation({
        registerOnInitialization: false,
        // One span per request and one for its handler; a span per hook would cost more than it tells.
        instrumentHooks: false,
        requestHook: (span) => span.setAttribute('console.component', component),
      });
      instrumentation.setTracerProvider(provider);
      instrumentations.push(instrumentation);
      return instrumentation.plugin() as unknown as FastifyPluginCallback;
    },
    async stop() {
      active = undefined;
      for (const instrumentation of instrumentations) instrumentation.disable();
      for (const m of pgModules) m.unpatch?.(m.exports);
      await provider.forceFlush().catch(() => undefined);
      await provider.shutdown().catch(() => undefined);
      trace.disable();
      context.disable();
      propagation.disable();
    },
  };
  const current = active;
  return () => current.stop();
}

/** The active trace's ids, for a log line (pino's `mixin`); nothing outside a trace or when tracing is off. */
export function traceLogFields(): { trace_id?: string; span_id?: string } {
  if (!active) return {};
  const span = trace.getSpanContext(context.active());
  return span && isSpanContextValid(span) ? { trace_id: span.traceId, span_id: span.spanId } : {};
}

/** Adds the active trace's `traceparent` (and `tracestate`) to the headers of an outgoing call. */
export function injectTraceContext(headers: Record<string, string>): void {
  if (active) propagation.inject(context.active(), headers);
}

/** The request's trace context (@fastify/otel's), when the request is traced. */
function requestContext(req: FastifyRequest): Context | undefined {
  return (req as FastifyRequest & { opentelemetry?: () => { context: Context | null } }).opentelemetry?.().context ?? undefined;
}

/**
 * Fastify's request lines, written inside the request's trace. Fastify writes "incoming request" before any
 * hook runs, so before the trace exists: that line is written by the hook `registerTracing` adds instead.
 */
class TracedLogController extends LogController {
  override incomingRequest(): void {}
  override requestCompleted(error: Error | null | undefined, req: FastifyRequest, reply: FastifyReply, metadata?: Record<string, unknown>): void {
    const ctx = requestContext(req);
    if (ctx) context.with(ctx, () => super.requestCompleted(error, req, reply, metadata));
    else super.requestCompleted(error, req, reply, metadata);
  }
}

/** Fastify options of an app built while tracing is on (nothing otherwise): `Fastify({ ...tracingOptions(), … })`. */
export function tracingOptions(): { logController?: LogController } {
  return active ? { logController: new TracedLogController() } : {};
}

/** Registers tracing on a Fastify app built with `tracingOptions()`, when it is on: call it before any route or hook. */
export async function registerTracing(app: FastifyInstance, component: string): Promise<void> {
  if (!active) return;
  await app.register(active.plugin(component));
  app.addHook('onRequest', async (req) => {
    req.log.info({ req }, 'incoming request');
  });
}
