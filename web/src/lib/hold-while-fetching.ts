import type { QueryClient } from '@tanstack/react-query';
import { afterFirstScreenSettles, holdFirstScreen } from './after-first-screen.js';

/**
 * Holds the first screen from settling while any query is fetching: on /home, until the widgets'
 * first answers are in and any request they lead to (a draft's patient name) has answered too.
 * Stops following the queries once the screen has settled, or when the returned stop is called.
 */
export function holdWhileFetching(queryClient: QueryClient): () => void {
  let release: (() => void) | undefined;
  const follow = () => {
    if (queryClient.isFetching() > 0) {
      release ??= holdFirstScreen();
    } else {
      release?.();
      release = undefined;
    }
  };
  const unsubscribe = queryClient.getQueryCache().subscribe(follow);
  follow();
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    unsubscribe();
    release?.();
  };
  void afterFirstScreenSettles().then(stop);
  return stop;
}
