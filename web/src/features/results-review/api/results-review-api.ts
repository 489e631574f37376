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

/**
 * "Reviewed": the follow-up task is made through the tasks API first, so the sign-off names it;
 * a task that cannot be made stops here and nothing is signed off.
 */
export async function signOffLabReview(review: LabReview, input: { comment: string; followUpTask: string | null }): Promise<LabReview> {
  let followUpTaskId: string | undefined;
  if (input.followUpTask) {
    const task = await apiRequest<{ ident: string }>({
      method: 'POST',
      path: '/v1/tasks',
      body: { text: input.followUpTask, patientId: review.patientId || null, noteDataLinks: [{ interactionIdent: review.noteId }] },
    });
    followUpTaskId = task.ident;
  }
  return apiRequest<LabReview>({
    method: 'POST',
    path: `/v1/notes/labs/reviews/${encodeURIComponent(review.noteId)}`,
    body: { version: review.version, ...(input.comment.trim() ? { comment: input.comment.trim() } : {}), ...(followUpTaskId ? { followUpTaskId } : {}) },
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
