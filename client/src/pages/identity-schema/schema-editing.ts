import { useEffect, useMemo, useState } from 'react';
import { traitsSchema } from '../../../../shared/domain/schema-form';

/** `value` once it has stopped changing for `ms`. */
export function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

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
