import type { SocialAnswer, Vaccine, VaccineGroupView } from './sections.js';

/*
 * Pure ordering rules shared by the API (list order) and the web (after an optimistic change).
 */

interface Pinnable {
  pinned?: boolean;
  createdAt?: string;
}

/** Pinned first; then by the item's date, newest first (no date last); then newest created first. */
export function orderChartItems<T extends Pinnable>(items: readonly T[], dateOf: (item: T) => string | undefined = () => undefined): T[] {
  return [...items].sort((a, b) => {
    if (!!a.pinned !== !!b.pinned) return a.pinned ? -1 : 1;
    const da = dateOf(a) ?? '';
    const db = dateOf(b) ?? '';
    if (da !== db) {
      if (!da) return 1;
      if (!db) return -1;
      return da < db ? 1 : -1;
    }
    return (b.createdAt ?? '').localeCompare(a.createdAt ?? '');
  });
}

/** Spec §4: Active list shows active items, Resolved the inactive ones (missing active means active). */
export function filterByActive<T extends { active?: boolean }>(items: readonly T[], filter: 'Active' | 'Resolved'): T[] {
  return items.filter((i) => (i.active !== false) === (filter === 'Active'));
}

/** Medications: Active shows status Active, Discontinued shows Complete. */
export function filterMedications<T extends { status?: string }>(items: readonly T[], filter: 'Active' | 'Discontinued'): T[] {
  return items.filter((i) => ((i.status ?? 'Active') === 'Active') === (filter === 'Active'));
}

/** Vaccine doses by date (undated last), then dose number (none last), then creation. */
export function compareVaccineDoses(a: Vaccine, b: Vaccine): number {
  const da = a.date || '9999-99-99';
  const db = b.date || '9999-99-99';
  if (da !== db) return da < db ? -1 : 1;
  const na = a.doseNumber ?? Number.MAX_SAFE_INTEGER;
  const nb = b.doseNumber ?? Number.MAX_SAFE_INTEGER;
  if (na !== nb) return na - nb;
  return a.createdAt.localeCompare(b.createdAt);
}

/**
 * Spec §2/§9: vaccines are grouped, sorted by date and then dose number. A dose in a stored group
 * goes to that group; other doses are grouped by vaccine name (case-insensitive). Groups with a
 * pinned dose come first, then by name.
 */
export function groupVaccines(vaccines: readonly Vaccine[]): VaccineGroupView[] {
  const groups = new Map<string, VaccineGroupView>();
  for (const v of vaccines) {
    const key = v.grouping?.ident ?? `name:${v.name.trim().toLowerCase()}`;
    let g = groups.get(key);
    if (!g) {
      g = { key, groupId: v.grouping?.ident, name: v.grouping?.name || v.name, pinned: false, items: [] };
      groups.set(key, g);
    }
    g.items.push(v);
    if (v.pinned) g.pinned = true;
  }
  const list = [...groups.values()];
  for (const g of list) g.items.sort(compareVaccineDoses);
  return list.sort((a, b) => (a.pinned !== b.pinned ? (a.pinned ? -1 : 1) : a.name.localeCompare(b.name, 'en', { sensitivity: 'base' })));
}

/** Answers newest first (by timestamp). */
export function orderAnswers(answers: readonly SocialAnswer[]): SocialAnswer[] {
  return [...answers].sort((a, b) => b.timestamp.localeCompare(a.timestamp));
}

/**
 * Spec §3/§4: a new answer is added only when it changed. Returns the list with `next` in front
 * when its text differs from the newest answer's (trimmed), else the list unchanged.
 */
export function appendAnswerIfChanged(existing: readonly SocialAnswer[], next: SocialAnswer): SocialAnswer[] {
  const ordered = orderAnswers(existing);
  const text = next.answer.trim();
  if (text === '' || (ordered[0] && ordered[0].answer.trim() === text)) return ordered;
  return [{ ...next, answer: text }, ...ordered];
}
