import type { QueryClient } from '@tanstack/react-query';
import type { LabReview } from '../../../../../shared/labs/lab-review-format.js';
import { apiRequest } from '../../../lib/api-client.js';

/** Results to review: the list, one result, and the practice's escalation time. */
export const resultsReviewKeys = {
  all: ['lab-reviews'] as const,
  list: (status: 'PENDING' | 'REVIEWED') => [...resultsReviewKeys.all, 'list', status] as const,
  detail: (noteId: string) => [...resultsReviewKeys.all, 'detail', noteId] as const,
  settings: () => [...resultsReviewKeys.all, 'settings'] as const,
};

/** The answers' schemas come with the first answer: the dashboard's widget calls here, and zod is not on the first screen. */
const responses = () => import('../../../../../shared/labs/lab-review-responses.js');

export async function fetchLabReviews(status: 'PENDING' | 'REVIEWED', signal?: AbortSignal, limit?: number): Promise<LabReview[]> {
  const body = await apiRequest({ path: '/v1/notes/labs/reviews', query: { status, limit }, signal }, async () => (await responses()).LabReviewList);
  return body.reviews;
}

export function fetchLabReview(noteId: string, signal?: AbortSignal): Promise<LabReview> {
  return apiRequest({ path: `/v1/notes/labs/reviews/${encodeURIComponent(noteId)}`, signal }, async () => (await responses()).LabReviewRecord);
}

export interface SignOffInput {
  comment: string;
  followUpTask: { text: string; assigned: string | null; dueOn: string | null } | null;
  followUpMessage: { text: string } | null;
}

/**
 * "Reviewed": the sign-off, its follow-up task and its text to the patient in one request. A follow-up
 * the server cannot make is refused before anything is signed off; a text the carrier refuses comes
 * back on the reviewed result as FAILED, with its reason and words.
 */
export function signOffLabReview(review: LabReview, input: SignOffInput): Promise<LabReview> {
  const task = input.followUpTask;
  return apiRequest(
    {
      method: 'POST',
      path: `/v1/notes/labs/reviews/${encodeURIComponent(review.noteId)}`,
      body: {
        version: review.version,
        ...(input.comment.trim() ? { comment: input.comment.trim() } : {}),
        ...(task
          ? { followUpTask: { text: task.text, ...(task.assigned ? { assigned: task.assigned } : {}), ...(task.dueOn ? { dueOn: task.dueOn } : {}) } }
          : {}),
        ...(input.followUpMessage ? { followUpMessage: { text: input.followUpMessage.text } } : {}),
      },
    },
    async () => (await responses()).LabReviewRecord,
  );
}

export function fetchLabReviewSettings(signal?: AbortSignal): Promise<{ criticalEscalationMinutes: number }> {
  return apiRequest({ path: '/v1/notes/labs/review-settings', signal }, async () => (await responses()).LabReviewSettingsRecord);
}

export function saveLabReviewSettings(settings: { criticalEscalationMinutes: number }): Promise<{ criticalEscalationMinutes: number }> {
  return apiRequest({ method: 'POST', path: '/v1/notes/labs/review-settings', body: settings }, async () => (await responses()).LabReviewSettingsRecord);
}

/** A sign-off here, or a lab result arriving live: every list and open result refreshes. */
export function refreshLabReviews(queryClient: QueryClient): void {
  void queryClient.invalidateQueries({ queryKey: resultsReviewKeys.all });
}
