import type { SchemasList } from '../../../../shared/schemas/identity-schemas';

/**
 * What people call an identity schema: a managed schema's name, a preset's title, a declared schema's own
 * `title`, else its id. `default` (an identity that follows the project's default) is named as that default.
 */
export function schemaNamer(list: SchemasList | undefined): (id: string) => string {
  const name = (id: string): string => {
    const managed = list?.managed.find((m) => m.id === id);
    if (managed) return managed.name;
    const preset = list?.presets.find((p) => p.id === id);
    if (preset) return preset.title;
    const title = (list?.active.find((s) => s.id === id)?.schema as { title?: unknown } | undefined)?.title;
    return typeof title === 'string' && title ? title : id;
  };
  return (id) => (id === 'default' && list && list.defaultId !== 'default' ? name(list.defaultId) : name(id));
}
