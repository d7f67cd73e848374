import { MESSAGES } from '../messages';

/** Relation type (lower case) → target URL as written in the header. */
export type LinkRelations = Record<string, string>;

/** Splits on commas that are not inside <…> or a quoted string. */
function splitLinks(header: string): string[] {
  const parts: string[] = [];
  let current = '';
  let inUrl = false;
  let inQuotes = false;
  for (const ch of header) {
    if (ch === '<' && !inQuotes) inUrl = true;
    else if (ch === '>' && !inQuotes) inUrl = false;
    else if (ch === '"' && !inUrl) inQuotes = !inQuotes;
    if (ch === ',' && !inUrl && !inQuotes) {
      parts.push(current);
      current = '';
    } else current += ch;
  }
  parts.push(current);
  return parts.map((p) => p.trim()).filter((p) => p !== '');
}

/**
 * Parses an RFC 8288 Link header (`<url>; rel="next", <url>; rel="prev"`) into rel → url.
 * Relation types are compared case-insensitively; a space-separated rel names several relations; the
 * first link for a relation wins. An empty or missing header gives {}. A part that cannot be split on
 * ';' throws Error('Link header could not be split on ;') (spec §5).
 */
export function parseLinkHeader(header: string | null | undefined): LinkRelations {
  const relations: LinkRelations = {};
  if (!header) return relations;
  for (const part of splitLinks(header)) {
    const semicolon = part.indexOf(';');
    if (semicolon === -1) throw new Error(MESSAGES.linkHeaderSplit);
    const target = part.slice(0, semicolon).trim();
    const url = target.startsWith('<') && target.endsWith('>') ? target.slice(1, -1).trim() : target;
    const rel = /(?:^|;)\s*rel\s*=\s*(?:"([^"]*)"|([^;\s]+))/i.exec(part.slice(semicolon));
    const names = (rel?.[1] ?? rel?.[2] ?? '').toLowerCase().split(/\s+/).filter(Boolean);
    for (const name of names) if (!(name in relations)) relations[name] = url;
  }
  return relations;
}

/** The value of `page_token` in a link target (relative or absolute URL), or undefined. */
export function pageTokenOf(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  const query = url.includes('?') ? url.slice(url.indexOf('?') + 1).split('#')[0] : '';
  const token = new URLSearchParams(query).get('page_token');
  return token === null || token === '' ? undefined : token;
}

/** The next page's token from a paginated list's Link header (Ory/Hydra style), or undefined. */
export function nextPageToken(header: string | null | undefined): string | undefined {
  return pageTokenOf(parseLinkHeader(header).next);
}
