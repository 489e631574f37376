/**
 * Open note windows save their draft to the server here before someone else signs in at a locked
 * screen (issue 34: the first user's drafts are saved as drafts, not shown to the next user).
 */
const savers = new Set<() => Promise<unknown>>();

export function registerDraftSaver(save: () => Promise<unknown>): () => void {
  savers.add(save);
  return () => {
    savers.delete(save);
  };
}

/** Saves every open draft; gives up waiting after `timeoutMs` so a dead network cannot hold the sign-out. */
export async function saveOpenDrafts(timeoutMs = 5_000): Promise<void> {
  const all = Promise.allSettled([...savers].map((save) => save()));
  await Promise.race([all, new Promise((resolve) => setTimeout(resolve, timeoutMs))]);
}
