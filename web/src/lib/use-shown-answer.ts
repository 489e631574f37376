import { useDeferredValue } from 'react';

export type ShownAnswer<T> = { status: 'pending' } | { status: 'error' } | { status: 'success'; data: T };

/**
 * A query's answer as a list shows it. A new answer re-renders the component at once, in one
 * blocking task (react-query's store updates are synchronous), and that task would also mount the
 * list, its links and their effects, which start the requests of the queries they hold. Here the
 * blocking render shows what was shown before (a spinner, or the last answer), and the new answer
 * follows in a render React can interrupt, whose effects run in a later task: a phone stays
 * responsive while several widgets' answers arrive together.
 */
export function useShownAnswer<T>(query: { data: T; isError: boolean }): ShownAnswer<Exclude<T, undefined>> {
  const data = useDeferredValue(query.data);
  if (query.isError) return { status: 'error' };
  return data === undefined ? { status: 'pending' } : { status: 'success', data: data as Exclude<T, undefined> };
}
