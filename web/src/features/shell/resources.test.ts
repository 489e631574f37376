import { describe, expect, it } from 'vitest';
import { RESOURCE_LINKS } from './resources.js';

describe('Resources menu', () => {
  it("offers the spec's items in the spec's order, each opening an https address", () => {
    expect(RESOURCE_LINKS.map((link) => link.label)).toEqual([
      'Help & Support',
      'Support Articles',
      'Product Updates',
      'Feature Requests',
      'Community',
      'Partner Ecosystem',
      'Blog',
    ]);
    expect(RESOURCE_LINKS.every((link) => link.href.startsWith('https://'))).toBe(true);
  });
});
