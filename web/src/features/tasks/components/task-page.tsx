import { useEffect, useState } from 'react';
import { Label, TextArea, TextField as AriaTextField, FieldError } from 'react-aria-components';
import { useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { PatientPicker } from '../../../components/patient-picker.js';
import { Badge } from '../../../components/ui/badge.js';
import { Button } from '../../../components/ui/button.js';
import { Checkbox } from '../../../components/ui/checkbox.js';
import { Form } from '../../../components/ui/form.js';
import { Link } from '../../../components/ui/link.js';
import { Select } from '../../../components/ui/select.js';
import { Spinner } from '../../../components/ui/spinner.js';
import { TextField } from '../../../components/ui/text-field.js';
import { isApiError, NETWORK_ERROR_MESSAGE } from '../../../lib/api-error.js';
import { paths } from '../../../lib/paths.js';
import { displayUserName, useCurrentUser, usePracticeUsers } from '../../../lib/practice.js';
import { showToast } from '../../../lib/toasts.js';
import { useLinkedNotes, useSaveTask, useTask } from '../api/tasks-api.js';
import { isTaskReadOnly, TASK_MESSAGES, taskFormToInput, type Task, type TaskFormValues, type TaskInput, type TaskUpdate } from '../task-model.js';
import { assignableUsers, linkedNoteLabel, statusLabel, statusTone } from '../task-rules.js';
import '../tasks.css';

const isStatusChange = (input: TaskInput | TaskUpdate | undefined) => Boolean(input && 'status' in input && input.status);

/** /tasks/new and /tasks/{id}: the task form; a completed task is shown read-only. */
export function TaskPage() {
  const { taskId = 'new' } = useParams();
  const isNew = taskId === 'new';
  const task = useTask(taskId);

  if (!isNew && task.isPending) return <Spinner label="Loading task" />;
  if (!isNew && task.isError) {
    return (
      <section className="tw-page">
        <div className="tw-card tw-tasks__error" role="alert">
          <p>{TASK_MESSAGES.loadFailed}</p>
          <Link href={paths.tasks()}>Back to tasks</Link>
        </div>
      </section>
    );
  }
  return <TaskEditor key={task.data ? `${task.data.ident}:${task.data.status}` : 'new'} task={isNew ? undefined : task.data} />;
}

type FormValues = TaskFormValues;

function TaskEditor({ task }: { task: Task | undefined }) {
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const me = useCurrentUser().data;
  const users = usePracticeUsers();
  const save = useSaveTask(task?.ident);
  const readOnly = task ? isTaskReadOnly(task) : false;
  const [values, setValues] = useState<FormValues>(() => ({
    // A new task started from a chart (/tasks/new?patientId=…) is about that patient.
    patientId: task ? (task.patientId ?? null) : search.get('patientId') || null,
    assignTo: task?.assigned ?? me?.userId ?? '',
    dueDate: task?.dueOn ?? '',
    highPriority: Boolean(task?.urgent),
    task: task?.text ?? '',
  }));
  const [errors, setErrors] = useState<Record<string, string>>({});

  // Opening a task assigned to me that is new or changed marks it read, which clears it from the badge.
  const markRead = save.mutate;
  const unreadForMe = task && me && task.assigned === me.userId && (task.status === 'UNREAD' || task.status === 'UPDATED');
  useEffect(() => {
    if (unreadForMe) markRead({ status: 'READ' });
  }, [unreadForMe, markRead]);

  const set = <K extends keyof FormValues>(field: K, value: FormValues[K]) => {
    setValues((current) => ({ ...current, [field]: value }));
    setErrors((current) => {
      if (!(field in current)) return current;
      const next = { ...current };
      delete next[field];
      return next;
    });
  };

  const body = (): TaskInput => taskFormToInput({ ...values, task: values.task.trim() });

  const submit = async () => {
    if (!values.task.trim()) {
      setErrors({ task: TASK_MESSAGES.textRequired });
      return;
    }
    try {
      const saved = await save.mutateAsync(body());
      showToast(task ? 'Task saved' : 'Task created', { tone: 'success' });
      if (!task) void navigate(paths.task(saved.ident), { replace: true });
    } catch (error) {
      const fieldErrors = isApiError(error) ? error.fieldErrors : {};
      // The API names the fields as stored; the form names them as the spec's task form does.
      const rename: Record<string, string> = { text: 'task', assigned: 'assignTo', dueOn: 'dueDate', urgent: 'highPriority' };
      setErrors(Object.fromEntries(Object.entries(fieldErrors).map(([k, v]) => [rename[k] ?? k, v])));
      showToast(error instanceof Error ? error.message : 'The task could not be saved', { tone: 'error' });
    }
  };

  const complete = async () => {
    try {
      await save.mutateAsync({ status: 'COMPLETED' });
      showToast('Task completed', { tone: 'success' });
    } catch (error) {
      showToast(error instanceof Error ? error.message : 'The task could not be completed', { tone: 'error' });
    }
  };

  const userOptions = assignableUsers(users.data ?? []);
  const author = task ? users.data?.find((u) => u.userId === task.createdBy) : undefined;

  return (
    <section className="tw-page" aria-labelledby="task-title">
      <div className="tw-page__header">
        <div>
          <h1 id="task-title" className="tw-page__title">
            {task ? 'Task' : 'New Task'}
          </h1>
          <p className="tw-page__subtitle">
            {task ? (
              <>
                <Badge tone={statusTone(task.status)}>{statusLabel(task.status)}</Badge>
                {author ? <span className="tw-tasks__byline">Created by {displayUserName(author)}</span> : null}
              </>
            ) : (
              'Assign work to yourself or a colleague.'
            )}
          </p>
        </div>
        <div className="tw-tasks__header-actions">
          <Link variant="secondary" href={paths.tasks()}>
            View My Tasks
          </Link>
        </div>
      </div>

      <div className="tw-card tw-tasks__form-card">
        {readOnly ? (
          <p className="tw-tasks__readonly" role="status">
            This task is {statusLabel(task?.status ?? '').toLowerCase()} and can no longer be edited.
          </p>
        ) : null}
        <Form
          validationErrors={errors}
          onSubmit={(event) => {
            event.preventDefault();
            void submit();
          }}
        >
          <fieldset className="tw-tasks__fieldset" disabled={readOnly}>
            <div className="tw-tasks__grid">
              <PatientPicker value={values.patientId} onChange={(id) => set('patientId', id)} isDisabled={readOnly} clearable />
              <Select
                label="Assign To"
                options={userOptions}
                name="assignTo"
                value={values.assignTo || null}
                onChange={(value) => set('assignTo', value ?? '')}
                isDisabled={readOnly}
              />
              <TextField label="Due Date" type="date" name="dueDate" value={values.dueDate ?? ''} onChange={(v) => set('dueDate', v)} isReadOnly={readOnly} />
              <div className="tw-tasks__priority">
                <Checkbox label="High Priority" isSelected={values.highPriority} onChange={(v) => set('highPriority', v)} isDisabled={readOnly} />
              </div>
            </div>
            <AriaTextField
              className="tw-field"
              name="task"
              isRequired
              value={values.task}
              onChange={(v) => set('task', v)}
              isReadOnly={readOnly}
              isInvalid={Boolean(errors.task)}
            >
              <Label className="tw-field__label">
                Task
                <span className="tw-field__required" aria-hidden="true">
                  {' '}
                  *
                </span>
              </Label>
              <TextArea className="tw-field__input tw-tasks__textarea" rows={5} placeholder="What needs to be done?" />
              <FieldError className="tw-field__error">{errors.task}</FieldError>
            </AriaTextField>
          </fieldset>
          <div className="tw-tasks__actions">
            {!readOnly ? (
              <>
                <Button variant="primary" type="submit" isPending={save.isPending && !isStatusChange(save.variables)}>
                  {task ? 'Save' : 'Create Task'}
                </Button>
                {task ? (
                  <Button variant="secondary" onPress={() => void complete()} isPending={save.isPending && isStatusChange(save.variables)}>
                    Mark Complete
                  </Button>
                ) : null}
              </>
            ) : null}
            <Button variant="quiet" onPress={() => void navigate(-1)}>
              {readOnly ? 'Back' : 'Cancel'}
            </Button>
          </div>
        </Form>
        {task && task.noteDataLinks.length > 0 ? <LinkedNotes links={task.noteDataLinks} /> : null}
      </div>
    </section>
  );
}

/** The notes this task links to (noteDataLinks), each opening the chart it belongs to. */
function LinkedNotes({ links }: { links: Task['noteDataLinks'] }) {
  const notes = useLinkedNotes(links);
  return (
    <section className="tw-tasks__linked" aria-labelledby="task-linked-notes">
      <h2 id="task-linked-notes" className="tw-tasks__linked-title">
        Linked notes
      </h2>
      <ul className="tw-tasks__linked-list">
        {links.map((link, i) => {
          const note = notes[i];
          return (
            <li key={link.interactionIdent}>
              {note.isPending ? (
                <span className="tw-tasks__muted">Loading note…</span>
              ) : note.isError ? (
                // A deleted note answers 404 'This note has been deleted' (spec shell §8 'Deleted item').
                <span className="tw-tasks__muted">{isApiError(note.error, 404) ? note.error.message : NETWORK_ERROR_MESSAGE}</span>
              ) : note.data.patientId ? (
                <Link href={paths.patient(note.data.patientId)}>{linkedNoteLabel(note.data)}</Link>
              ) : (
                <span>{linkedNoteLabel(note.data)}</span>
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
