import type { Identity, IdentityApi } from '@ory/client';
import type { z } from 'zod';
import type { identitiesListInput } from '../../../shared/schemas/identities';
import { nextTokenOf } from './paging';

export const PAGE_SIZE = 25;
/** Upstream pages one console page may read while a filter the identity provider ignores thins them out. */
const MAX_UPSTREAM_PAGES = 20;

type ListInput = z.infer<typeof identitiesListInput>;

/**
 * One page of identities, newest first, with the state and schema filters applied before paging: upstream
 * pages are asked for exactly as many rows as the page still lacks, so the page is full whenever there
 * are that many matches and the next token resumes right after the last row read. The local stack filters
 * and orders itself (one call); an identity provider that ignores those parameters is filtered here.
 */
export async function filteredPage(api: IdentityApi, input: ListInput): Promise<{ identities: Identity[]; nextPageToken: string | null }> {
  const matches = (i: Identity) => (!input.state || i.state === input.state) && (!input.schemaId || i.schema_id === input.schemaId);
  const params = {
    order: 'newest',
    ...(input.state ? { state: input.state } : {}),
    ...(input.schemaId ? { schema_id: input.schemaId } : {}),
  };
  const identities: Identity[] = [];
  let token = input.pageToken ?? null;
  for (let read = 0; read < MAX_UPSTREAM_PAGES; read += 1) {
    const res = await api.listIdentities(
      {
        pageSize: PAGE_SIZE - identities.length,
        ...(token ? { pageToken: token } : {}),
        ...(input.search ? { previewCredentialsIdentifierSimilar: input.search } : {}),
      },
      { params },
    );
    identities.push(...res.data.filter(matches));
    token = nextTokenOf(res.headers as Record<string, unknown>);
    if (!token || identities.length >= PAGE_SIZE) break;
  }
  return { identities, nextPageToken: token };
}

/** X-Total-Count of an upstream answer, or null when it has none. */
export function totalOf(headers: Record<string, unknown> | undefined): number | null {
  const raw = headers?.['x-total-count'];
  const total = typeof raw === 'string' && /^\d+$/.test(raw) ? Number(raw) : NaN;
  return Number.isSafeInteger(total) ? total : null;
}

/** Look-ups of an import's dry run that run at once. */
const LOOKUPS_AT_ONCE = 8;
/** Up to this many identities, a dry run reads them all (a few pages) instead of looking each address up. */
const READ_ALL_UP_TO = 5000;
const READ_PAGE_SIZE = 500;

/** Every address an identity answers to: its email trait, its addresses and its credential identifiers, lower-cased. */
const addressesOf = (i: Identity) =>
  [
    i.traits?.email,
    ...(i.verifiable_addresses ?? []).map((a) => a.value),
    ...(i.recovery_addresses ?? []).map((a) => a.value),
    ...Object.values(i.credentials ?? {}).flatMap((c) => c.identifiers ?? []),
  ]
    .filter((v): v is string => typeof v === 'string')
    .map((v) => v.toLowerCase());

/**
 * Which of `addresses` (compared lower-cased) an identity of the project has already. A project of a few
 * thousand identities is read whole, a few pages; a larger one gets one similarity search per address,
 * eight at a time.
 */
export async function existingAddresses(api: IdentityApi, addresses: string[]): Promise<string[]> {
  const wanted = [...new Set(addresses.map((a) => a.toLowerCase()))];
  const found = new Set<string>();
  const total = totalOf((await api.listIdentities({ page: 0, perPage: 1 })).headers as Record<string, unknown>);
  if (total !== null && total <= READ_ALL_UP_TO) {
    let token: string | null = null;
    do {
      const res = await api.listIdentities({ pageSize: READ_PAGE_SIZE, ...(token ? { pageToken: token } : {}) });
      for (const identity of res.data) for (const address of addressesOf(identity)) found.add(address);
      token = nextTokenOf(res.headers as Record<string, unknown>);
    } while (token);
    return wanted.filter((a) => found.has(a));
  }
  let next = 0;
  const worker = async () => {
    while (next < wanted.length) {
      const address = wanted[next++]!;
      const res = await api.listIdentities({ previewCredentialsIdentifierSimilar: address, pageSize: 25 });
      if (res.data.some((i) => addressesOf(i).includes(address))) found.add(address);
    }
  };
  await Promise.all(Array.from({ length: Math.min(LOOKUPS_AT_ONCE, wanted.length) }, worker));
  return wanted.filter((a) => found.has(a));
}
