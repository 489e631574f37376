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

export async function fetchLabReviews(status: 'PENDING' | 'REVIEWED', signal?: AbortSignal, limit?: number): Promise<LabReview[]> {
  const body = await apiRequest<{ reviews: LabReview[] }>({ path: '/v1/notes/labs/reviews', query: { status, limit }, signal });
  return body.reviews;
}

export function fetchLabReview(noteId: string, signal?: AbortSignal): Promise<LabReview> {
  return apiRequest<LabReview>({ path: `/v1/notes/labs/reviews/${encodeURIComponent(noteId)}`, signal });
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
  return apiRequest<LabReview>({
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
  });
}

export function fetchLabReviewSettings(signal?: AbortSignal): Promise<{ criticalEscalationMinutes: number }> {
  return apiRequest<{ criticalEscalationMinutes: number }>({ path: '/v1/notes/labs/review-settings', signal });
}

export function saveLabReviewSettings(settings: { criticalEscalationMinutes: number }): Promise<{ criticalEscalationMinutes: number }> {
  return apiRequest<{ criticalEscalationMinutes: number }>({ method: 'POST', path: '/v1/notes/labs/review-settings', body: settings });
}

/** A sign-off here, or a lab result arriving live: every list and open result refreshes. */
export function refreshLabReviews(queryClient: QueryClient): void {
  void queryClient.invalidateQueries({ queryKey: resultsReviewKeys.all });
}
