import type { QueryClient } from '@tanstack/react-query';

/**
 * Lab results arrived (a live LAB_RESULTS notification): the chart's notes list, the lab note
 * itself, the patient's lab table and the review lists show them without a reload. The keys are
 * the notes and results-review features' own prefixes, named here so the workspace needs neither.
 */
export function refreshLabResults(queryClient: QueryClient, noteId: string | undefined): void {
  void queryClient.invalidateQueries({ queryKey: ['notes', 'timeline'] });
  void queryClient.invalidateQueries({ queryKey: ['notes', 'labs'] });
  if (noteId) void queryClient.invalidateQueries({ queryKey: ['notes', 'detail', noteId] });
  void queryClient.invalidateQueries({ queryKey: ['lab-reviews'] });
}
