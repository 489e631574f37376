import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { importWhenOnline } from './import-when-online.js';

const network = new EventTarget();
let online = true;

beforeEach(() => {
  online = true;
  vi.stubGlobal('navigator', {
    get onLine() {
      return online;
    },
  });
  vi.stubGlobal('addEventListener', network.addEventListener.bind(network));
  vi.stubGlobal('removeEventListener', network.removeEventListener.bind(network));
});
afterEach(() => vi.unstubAllGlobals());

const goOnline = async () => {
  online = true;
  network.dispatchEvent(new Event('online'));
  await new Promise((resolve) => setTimeout(resolve, 0));
};

describe('importWhenOnline', () => {
  it('loads the chunk once the network is back when the first try was made offline', async () => {
    online = false;
    const load = vi.fn().mockRejectedValueOnce(new TypeError('Failed to fetch dynamically imported module')).mockResolvedValue({ feed: 'live' });
    const loaded = importWhenOnline(load, new AbortController().signal);
    let result: unknown;
    void loaded.then((value) => (result = value));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(load).toHaveBeenCalledTimes(1);
    expect(result).toBeUndefined();

    await goOnline();
    expect(load).toHaveBeenCalledTimes(2);
    expect(result).toEqual({ feed: 'live' });
  });

  it('passes on a failure while online: the chunk is gone, waiting will not bring it back', async () => {
    const load = vi.fn().mockRejectedValue(new TypeError('404'));
    await expect(importWhenOnline(load, new AbortController().signal)).rejects.toThrow('404');
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('stops waiting when the screen that wanted it is gone', async () => {
    online = false;
    const load = vi.fn().mockRejectedValue(new TypeError('offline'));
    const unmounted = new AbortController();
    const loaded = importWhenOnline(load, unmounted.signal);
    unmounted.abort();
    await expect(loaded).rejects.toThrow('offline');
    await goOnline();
    expect(load).toHaveBeenCalledTimes(1);
  });
});
