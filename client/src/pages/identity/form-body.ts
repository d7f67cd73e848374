/** Turns flow form fields into the JSON body Ory expects: dotted names become nested objects. */

export interface FieldValue {
  name: string;
  value: unknown;
}

export function setPath(target: Record<string, unknown>, path: string, value: unknown): void {
  const parts = path.split('.');
  let cursor = target;
  parts.forEach((part, index) => {
    if (index === parts.length - 1) {
      cursor[part] = value;
      return;
    }
    const next = cursor[part];
    if (typeof next !== 'object' || next === null) cursor[part] = {};
    cursor = cursor[part] as Record<string, unknown>;
  });
}

export function buildBody(fields: readonly FieldValue[]): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const field of fields) setPath(body, field.name, field.value);
  return body;
}

type Submitter = HTMLButtonElement | HTMLInputElement;

/** Collects a form's values; of the submit buttons only the one that was pressed counts. */
export function collectFields(form: HTMLFormElement, submitter: Submitter | null): FieldValue[] {
  const fields: FieldValue[] = [];
  for (const element of Array.from(form.elements)) {
    if (!(element instanceof HTMLInputElement) && !(element instanceof HTMLSelectElement)) continue;
    if (!element.name || element.disabled) continue;
    if (element instanceof HTMLInputElement) {
      if (element.type === 'submit' || element.type === 'button') continue;
      if (element.type === 'checkbox') {
        fields.push({ name: element.name, value: element.checked });
        continue;
      }
      if (element.type === 'number') {
        if (element.value !== '') fields.push({ name: element.name, value: Number(element.value) });
        continue;
      }
    }
    fields.push({ name: element.name, value: element.value });
  }
  if (submitter?.name) fields.push({ name: submitter.name, value: submitter.value });
  return fields;
}
