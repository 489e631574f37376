/**
 * Says a short text to screen readers through a visually hidden live region.
 *
 * react-aria's own announcer reads a pending button by pointing an `aria-labelledby` at the button's
 * id; when the button leaves the page (a signed note, a closed dialog, a sign-off that moves on) that
 * announcement stays behind as an image without a name. This one carries the words themselves, so
 * nothing it leaves can point at a missing element.
 */
const CLEAR_AFTER_MS = 7_000;

let region: HTMLElement | null = null;

function liveRegion(): HTMLElement {
  if (region?.isConnected) return region;
  region = document.createElement('div');
  region.className = 'tw-visually-hidden';
  region.dataset.twAnnouncer = 'true';
  region.setAttribute('role', 'log');
  region.setAttribute('aria-live', 'assertive');
  region.setAttribute('aria-relevant', 'additions');
  document.body.append(region);
  return region;
}

export function announce(text: string): void {
  const words = text.trim();
  if (!words || typeof document === 'undefined') return;
  const log = liveRegion();
  const line = document.createElement('div');
  line.textContent = words;
  // Added a moment after the region itself, otherwise Safari does not read the first announcement.
  window.setTimeout(() => log.append(line), 100);
  window.setTimeout(() => line.remove(), CLEAR_AFTER_MS);
}
