import * as z from '../../../../shared/zod.js';
export {
  Task as TaskSchema,
  TaskPage as TaskListResponse,
  TASK_STATUSES,
  TASK_PAGE_SIZE,
  TASK_SEARCH_DEBOUNCE_MS,
  TASK_MESSAGES,
  TASK_BADGE_STATUSES,
  isTaskReadOnly,
  taskFormToInput,
  type Task,
  type TaskCreateInput as TaskInput,
  type TaskUpdateInput as TaskUpdate,
  type TaskFormValues,
} from '../../../../shared/tasks/task-schema.js';
import { Note } from '../../../../shared/notes/note-schema.js';
import { TASK_STATUSES } from '../../../../shared/tasks/task-schema.js';

/** The status filter offers the known list only (spec shell §2.9). */
export const TASK_FILTER_STATUSES: readonly string[] = TASK_STATUSES;

/** What a task's noteDataLinks entry shows of the note it links to (GET /v1/notes/{noteId}). */
export const LinkedNote = z.pick(Note, { noteId: true, noteType: true, status: true, patientId: true, eventTimestamp: true });
export type LinkedNote = z.infer<typeof LinkedNote>;
