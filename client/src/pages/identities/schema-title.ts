/** A schema's name for a select: its title, else its id. */
export function schemaTitle(entry: { id: string; schema?: unknown }): string {
  const schema = entry.schema as { title?: unknown } | undefined;
  return typeof schema?.title === 'string' && schema.title ? `${schema.title} (${entry.id})` : entry.id;
}
