/** A call's query: empty values (undefined, null, '') are left out of the address. */
export type ApiQuery = Record<string, string | number | boolean | undefined | null>;

/** The address of an API call: the API root, the path, and the query's non-empty values in order. */
export function buildUrl(apiUrl: string, path: string, query?: ApiQuery): string {
  const url = `${apiUrl.replace(/\/$/, '')}${path.startsWith('/') ? path : `/${path}`}`;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  }
  const search = params.toString();
  return search ? `${url}?${search}` : url;
}
