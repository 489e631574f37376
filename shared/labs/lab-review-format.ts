/**
 * Results to review (issue 40): every lab result that came back for a provider's order waits on
 * their list until they sign it off. Critical values (the lab's HL7 interpretation HH, LL or AA)
 * that nobody signs off in time become an urgent task for the ordering provider. No zod here, so
 * the dashboard's widget stays light; the request schemas are in lab-review.ts.
 */
import { labAbnormality, labValueText, type LabResultItem } from './lab-format.js';

/** HL7 v3 ObservationInterpretation codes a lab uses for a critical (panic) value. */
export const CRITICAL_INTERPRETATIONS = ['HH', 'LL', 'AA'] as const;

export function isCriticalLabItem(item: Pick<LabResultItem, 'interpretation'>): boolean {
  return (CRITICAL_INTERPRETATIONS as readonly string[]).includes(item.interpretation?.toUpperCase() ?? '');
}

export type LabReviewSeverity = 'critical' | 'abnormal' | 'normal';
/** The list's order: critical first, then abnormal, then the rest; the sort key's first digit. */
export const SEVERITY_RANK: Record<LabReviewSeverity, number> = { critical: 0, abnormal: 1, normal: 2 };

/** One flagged value as the list shows it. */
export interface LabReviewFlag {
  code: string;
  text: string;
  value: string;
  /** high, low or abnormal, as the result table labels them. */
  flag: 'high' | 'low' | 'abnormal';
  critical: boolean;
}

export function labReviewFlags(results: readonly LabResultItem[]): LabReviewFlag[] {
  const flags: LabReviewFlag[] = [];
  for (const item of results) {
    const flag = labAbnormality(item);
    if (!flag) continue;
    flags.push({ code: item.code, text: item.text, value: labValueText(item), flag, critical: isCriticalLabItem(item) });
  }
  // Critical values lead, so the list's short form names them first.
  return flags.sort((a, b) => Number(b.critical) - Number(a.critical));
}

export function labReviewSeverity(flags: readonly LabReviewFlag[]): LabReviewSeverity {
  if (flags.some((f) => f.critical)) return 'critical';
  return flags.length ? 'abnormal' : 'normal';
}

export const LAB_REVIEW_STATUSES = ['PENDING', 'REVIEWED'] as const;
export type LabReviewStatus = (typeof LAB_REVIEW_STATUSES)[number];

/** The follow-up text as sent (SENT) or refused (FAILED, with the messaging path's reason). */
export interface LabReviewFollowUpMessage {
  text: string;
  to: string;
  from: string;
  status: 'SENT' | 'FAILED';
  /** The SMS note the text is kept in (its conversation shows it), when the send got that far. */
  noteId?: string;
  conversationId?: string;
  error?: string;
}

/** A LAB note's result as the ordering provider's review list holds it. */
export interface LabReview {
  noteId: string;
  patientId: string;
  patientName: string;
  orderingProviderId: string;
  orderingProviderName: string;
  /** The panels reported, by name. */
  tests: string[];
  severity: LabReviewSeverity;
  flags: LabReviewFlag[];
  status: LabReviewStatus;
  /** When the first result still unreviewed arrived: how long it has waited. */
  waitingSince: string;
  /** When the latest report arrived. */
  receivedAt: string;
  reviewedAt?: string;
  reviewedBy?: { userId: string; name: string };
  comment?: string;
  followUpTaskId?: string;
  /** The text to the patient sent with the sign-off; kept here even when the carrier refused it. */
  followUpMessage?: LabReviewFollowUpMessage;
  /** The urgent task an unreviewed critical value became. */
  escalatedTaskId?: string;
  escalatedAt?: string;
  /** Optimistic lock: each write adds one. */
  version: number;
}

export const LAB_REVIEW_COMMENT_MAX = 2000;

export const LAB_REVIEW_MESSAGES = {
  notFound: 'No result to review for this lab',
  notYours: 'Only the ordering provider or an admin signs off this result.',
  rolesOnly: 'Only providers and admins review lab results.',
  alreadyReviewed: 'This result was already reviewed.',
  changed: 'New results arrived since you opened this one. Look at them, then sign off again.',
  commentTooLong: `Comment must be at most ${LAB_REVIEW_COMMENT_MAX} characters`,
  minutesInvalid: 'Escalation time must be a whole number of minutes from 1 to 1440',
  adminOnly: 'Only a practice admin can change when critical results escalate.',
  messageRequired: 'Type the message to the patient',
  oneTask: 'Link an existing follow-up task or create one, not both',
  noPatientForMessage: 'This result has no patient to text',
  noPatientPhone: 'The patient has no phone number to text. Add one in their profile, or uncheck the text message.',
  messageNotSent: (reason: string) => `The result is reviewed, but the text to the patient was not sent. ${reason} The message is kept below.`,
} as const;

/** The LAB_RESULTS notification's text: names the patient and the tests, and what needs a look. */
export function labResultsNotificationText(patientName: string, tests: readonly string[], flags: readonly LabReviewFlag[]): string {
  const critical = flags.filter((f) => f.critical).length;
  const outOfRange = flags.length - critical;
  const parts = [critical ? `${critical} critical` : '', outOfRange ? `${outOfRange} out of range` : ''].filter(Boolean);
  return `Lab results for ${patientName}: ${tests.join(', ') || 'lab'}${parts.length ? ` (${parts.join(', ')})` : ''}`;
}

/** "3 h 5 min", "2 d 4 h": how long a result has waited. */
export function waitedText(since: string, now = Date.now()): string {
  const minutes = Math.max(0, Math.floor((now - Date.parse(since)) / 60_000));
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours} h ${minutes % 60} min`;
  return `${Math.floor(hours / 24)} d ${hours % 24} h`;
}

/** Sane default: an hour for a critical value nobody signed off (issue 40). */
export const DEFAULT_CRITICAL_ESCALATION_MINUTES = 60;
