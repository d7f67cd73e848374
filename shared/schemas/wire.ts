import type { z } from 'zod';

/**
 * Compile-time check that a schema only ever produces valid values of an `@ory/client` wire model:
 * `conformsTo<ProjectMetadata>()(schema)` stops type-checking when the schema and the model drift apart.
 * The model stays Ory's (`import type`); the schema adds only what the wire model cannot say (bounds,
 * trimming, messages).
 */
export function conformsTo<Model>() {
  return <S extends z.ZodType<Model>>(schema: S): S => schema;
}

/** A model whose listed fields may also be null or absent (where the generated model is stricter than the API). */
export type Relaxed<Model, K extends keyof Model> = Omit<Model, K> & { [P in K]?: Model[P] | null | undefined };
