import { useMemo, useState } from 'react';
import { traitsSchema } from '../../../../shared/domain/schema-form';

/** The schema the editor's text is, when it is JSON with traits, and the preview form's values. */
export function useSchemaPreview(text: string) {
  const [traits, setTraits] = useState<Record<string, unknown>>({});
  const schema = useMemo(() => {
    try {
      const parsed: unknown = JSON.parse(text);
      return traitsSchema(parsed) ? parsed : null;
    } catch {
      return null;
    }
  }, [text]);
  return { schema, traits, setTraits };
}
