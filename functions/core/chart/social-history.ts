import { randomUUID } from 'node:crypto';
import { appendAnswerIfChanged, orderAnswers, orderChartItems } from '../../../shared/chart/ordering.js';
import { SocialHistoryInput, type SocialAnswer } from '../../../shared/chart/sections.js';
import type { AuthContext } from '../../lib/auth/auth-context.js';
import type { SectionSpec } from './section-crud.js';
import { createSectionItemFrom, existingItem, listSectionItems, updateSectionItemFrom } from './section-crud.js';

type Input = SocialHistoryInput;

/**
 * Answers are append-only: a save adds an answer only when its text differs from the newest
 * stored one, stamped with the time and the user; stored answers are never rewritten by a body.
 */
export const SOCIAL_HISTORY: SectionSpec<Input, 'socialHistory'> = {
  section: 'socialHistory',
  label: 'Social history',
  entity: 'social_history',
  input: SocialHistoryInput,
  order: (items) => orderChartItems(items).map((i) => ({ ...i, answers: orderAnswers(i.answers) })),
};

type BodyAnswer = NonNullable<Input['answers']>[number];

function newAnswers(auth: AuthContext, known: ReadonlySet<string>, bodyAnswers: readonly BodyAnswer[] | undefined, answer: string | undefined): SocialAnswer[] {
  const now = new Date().toISOString();
  // The form lists answers newest first; new ones are applied oldest first.
  const fresh = [...(bodyAnswers ?? [])].filter((a) => !a.ident || !known.has(a.ident)).reverse();
  const out: SocialAnswer[] = fresh.map((a) => ({
    ident: randomUUID(),
    answer: a.answer,
    timestamp: now,
    userId: auth.userId,
    ...(a.formSource ? { formSource: a.formSource } : {}),
  }));
  if (answer !== undefined) out.push({ ident: randomUUID(), answer, timestamp: now, userId: auth.userId });
  return out;
}

function appendAll(existing: readonly SocialAnswer[], additions: readonly SocialAnswer[]): SocialAnswer[] {
  return additions.reduce<SocialAnswer[]>((list, a) => appendAnswerIfChanged(list, a), orderAnswers(existing));
}

export async function createSocialHistory(auth: AuthContext, patientId: string, input: Input) {
  const answers = appendAll([], newAnswers(auth, new Set(), input.answers, input.answer));
  const { answer: _a, answers: _b, ...rest } = input;
  return createSectionItemFrom(auth, SOCIAL_HISTORY, patientId, { ...rest, answers });
}

export async function updateSocialHistory(auth: AuthContext, patientId: string, ident: string, changes: Record<string, unknown>) {
  const existing = await existingItem(auth, SOCIAL_HISTORY, patientId, ident);
  const known = new Set(existing.answers.map((a) => a.ident));
  const answers = appendAll(existing.answers, newAnswers(auth, known, changes.answers as BodyAnswer[] | undefined, changes.answer as string | undefined));
  const { answer: _a, answers: _b, ...rest } = changes;
  // The answer list is written only when an answer was added, so an edit of other fields leaves it alone.
  const added = answers.length !== existing.answers.length;
  return updateSectionItemFrom(auth, SOCIAL_HISTORY, patientId, ident, rest, {
    existing,
    keep: ['answers'],
    ...(added ? { extra: { answers } } : {}),
  });
}

export const listSocialHistory = (auth: AuthContext, patientId: string) => listSectionItems(auth, SOCIAL_HISTORY, patientId);
