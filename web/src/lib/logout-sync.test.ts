import { afterEach, describe, expect, it, vi } from 'vitest';

/** Node's BroadcastChannel delivers like a browser's: to every other channel object of the name. */
const delivered = () => new Promise((resolve) => setTimeout(resolve, 50));

describe('logout across tabs', () => {
  afterEach(() => vi.resetModules());

  it('tells the other tabs, and not the tab that is already signing out', async () => {
    const thisTab = await import('./logout-sync.js');
    vi.resetModules();
    const otherTab = await import('./logout-sync.js');
    const here = vi.fn();
    const there = vi.fn();
    const stopHere = thisTab.onLogoutElsewhere(here);
    const stopThere = otherTab.onLogoutElsewhere(there);
    try {
      thisTab.announceLogout();
      await delivered();
      expect(there).toHaveBeenCalledTimes(1);
      expect(here).not.toHaveBeenCalled();
    } finally {
      stopHere();
      stopThere();
    }
  });
});
