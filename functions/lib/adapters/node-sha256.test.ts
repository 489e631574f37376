import { Sha256 } from '@aws-crypto/sha256-js';
import { describe, expect, it } from 'vitest';
import { NodeSha256 } from './node-sha256.js';

async function both(secret: string | undefined, parts: Array<string | Uint8Array>) {
  const ours = new NodeSha256(secret);
  const theirs = new Sha256(secret);
  for (const part of parts) {
    ours.update(part);
    theirs.update(part);
  }
  return [Buffer.from(await ours.digest()).toString('hex'), Buffer.from(await theirs.digest()).toString('hex')];
}

describe('NodeSha256', () => {
  it('gives the digests of the SDK’s JavaScript SHA-256, keyed or not, over strings and byte views', async () => {
    const view = new Uint8Array(Buffer.from('xxpayloadxx')).subarray(2, 9);
    for (const secret of [undefined, 'AWS4wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY']) {
      const [ours, theirs] = await both(secret, ['GET\n/\n', view, 'é ünïcode']);
      expect(ours).toBe(theirs);
    }
    const [empty] = await both(undefined, []);
    expect(empty).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });

  it('starts over after reset', async () => {
    const hash = new NodeSha256('key');
    hash.update('first');
    hash.reset();
    hash.update('second');
    const fresh = new NodeSha256('key');
    fresh.update('second');
    expect(Buffer.from(await hash.digest())).toEqual(Buffer.from(await fresh.digest()));
  });
});
