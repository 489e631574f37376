/**
 * Top bar Resources menu (spec shell §2.3), in the spec's order. The help-centre address is the
 * product's public site; it holds no practice data.
 */
export const RESOURCES_SITE = 'https://help.tidewell.app';

export const RESOURCE_LINKS: readonly { id: string; label: string; href: string }[] = [
  { id: 'help', label: 'Help & Support', href: `${RESOURCES_SITE}/support` },
  { id: 'articles', label: 'Support Articles', href: `${RESOURCES_SITE}/articles` },
  { id: 'updates', label: 'Product Updates', href: `${RESOURCES_SITE}/updates` },
  { id: 'requests', label: 'Feature Requests', href: `${RESOURCES_SITE}/feature-requests` },
  { id: 'community', label: 'Community', href: `${RESOURCES_SITE}/community` },
  { id: 'partners', label: 'Partner Ecosystem', href: `${RESOURCES_SITE}/partners` },
  { id: 'blog', label: 'Blog', href: `${RESOURCES_SITE}/blog` },
];
