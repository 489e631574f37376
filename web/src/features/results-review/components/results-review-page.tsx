import { useMutation, useQuery, useQueryClient, type UseQueryResult } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { FieldError, Label, TextArea, TextField as AriaTextField } from 'react-aria-components';
import { useNavigate, useParams, useSearchParams } from 'react-router-dom';
import {
  DEFAULT_CRITICAL_ESCALATION_MINUTES,
  LAB_REVIEW_MESSAGES,
  waitedText,
  type LabReview,
  type LabReviewFollowUpMessage,
} from '../../../../../shared/labs/lab-review-format.js';
import { primaryPhone } from '../../../../../shared/patients/patient-derived.js';
import { formatPhone } from '../../../../../shared/patients/phone.js';
import { Button } from '../../../components/ui/button.js';
import { Checkbox } from '../../../components/ui/checkbox.js';
import { Link } from '../../../components/ui/link.js';
import { Page } from '../../../components/ui/page.js';
import { QueryTable } from '../../../components/ui/query-table.js';
import { Select } from '../../../components/ui/select.js';
import { Spinner } from '../../../components/ui/spinner.js';
import { TextField } from '../../../components/ui/text-field.js';
import { isApiError, NETWORK_ERROR_MESSAGE } from '../../../lib/api-error.js';
import { paths } from '../../../lib/paths.js';
import { usePatient } from '../../../lib/patients.js';
import { displayUserName, useCurrentUser, usePracticeUsers } from '../../../lib/practice.js';
import { useCan } from '../../../lib/permissions.js';
import { showToast } from '../../../lib/toasts.js';
import {
  fetchLabReview,
  fetchLabReviews,
  fetchLabReviewSettings,
  refreshLabReviews,
  resultsReviewKeys,
  saveLabReviewSettings,
  signOffLabReview,
} from '../api/results-review-api.js';
import { flaggedText, SeverityBadge } from './review-summary.js';
import '../results-review.css';

const when = (iso: string) => new Date(iso).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' });
const errorText = (error: unknown) => (isApiError(error) ? error.message : error instanceof Error ? error.message : NETWORK_ERROR_MESSAGE);

export interface ResultsReviewPageProps {
  /** The lab note's own view (its results and their trends), composed by the app from the notes feature. */
  renderResult: (review: LabReview) => ReactNode;
  /** Tasks shown elsewhere refresh after a follow-up task is made. */
  onTaskCreated?: () => void;
}

/** /results-review and /results-review/:noteId: the signed-in provider's lab results waiting for sign-off. */
export function ResultsReviewPage({ renderResult, onTaskCreated }: ResultsReviewPageProps) {
  const { noteId } = useParams();
  const [search] = useSearchParams();
  const reviewed = search.get('view') === 'reviewed';
  const mayReview = useCan('lab.review');
  const isAdmin = useCan('practice.settings.change');
  const status = reviewed ? 'REVIEWED' : 'PENDING';
  const list = useQuery({ queryKey: resultsReviewKeys.list(status), queryFn: ({ signal }) => fetchLabReviews(status, signal), enabled: mayReview && !noteId });

  if (!mayReview) {
    return (
      <Page title="Results to review">
        <p className="tw-results__empty">Lab results are reviewed by the providers who ordered them and by admins.</p>
      </Page>
    );
  }
  if (noteId) return <ResultDetail noteId={noteId} renderResult={renderResult} onTaskCreated={onTaskCreated} />;
  const count = list.data?.length;
  return (
    <Page
      title="Results to review"
      subtitle={count === undefined ? 'Loading…' : reviewed ? `${count} reviewed recently` : `${count} waiting for your sign-off`}
      nav={
        <nav className="tw-results__views" aria-label="Results">
          <Link
            href={paths.resultsToReview()}
            aria-current={reviewed ? undefined : 'page'}
            className={reviewed ? 'tw-results__view' : 'tw-results__view tw-results__view--current'}
          >
            To review
          </Link>
          <Link
            href={paths.reviewedResults()}
            aria-current={reviewed ? 'page' : undefined}
            className={reviewed ? 'tw-results__view tw-results__view--current' : 'tw-results__view'}
          >
            Reviewed
          </Link>
        </nav>
      }
    >
      <ReviewTable list={list} reviewed={reviewed} />
      {isAdmin && !reviewed ? <EscalationSettings /> : null}
    </Page>
  );
}

function ReviewTable({ list, reviewed }: { list: UseQueryResult<LabReview[]>; reviewed: boolean }) {
  return (
    // A phone scrolls the table sideways; the region takes focus so the keyboard can scroll it.
    <QueryTable
      query={list}
      items={list.data}
      label={reviewed ? 'Reviewed results, newest first' : 'Results to review, critical and abnormal first, then the longest waiting'}
      loadingLabel="Loading results"
      emptyText={reviewed ? 'Nothing reviewed yet.' : 'No results waiting for your review.'}
      errorText={(error) => errorText(error)}
      className="tw-results__table"
      scrollRegion={{ label: 'Results, scrollable' }}
      columns={['Patient', 'Result', 'Tests', 'Flagged values', reviewed ? 'Reviewed' : 'Waiting']}
      renderRow={(r) => (
        <tr key={r.noteId} className={r.severity === 'critical' ? 'tw-results__row--critical' : undefined}>
          <th scope="row">
            <Link href={paths.resultToReview(r.noteId)}>{r.patientName}</Link>
          </th>
          <td>
            <SeverityBadge review={r} />
          </td>
          <td>{r.tests.join(', ')}</td>
          <td>{flaggedText(r)}</td>
          <td>{reviewed ? `${r.reviewedAt ? when(r.reviewedAt) : ''} by ${r.reviewedBy?.name ?? ''}` : waitedText(r.waitingSince)}</td>
        </tr>
      )}
    />
  );
}

function ResultDetail({ noteId, renderResult, onTaskCreated }: { noteId: string; renderResult: (review: LabReview) => ReactNode; onTaskCreated?: () => void }) {
  const review = useQuery({ queryKey: resultsReviewKeys.detail(noteId), queryFn: ({ signal }) => fetchLabReview(noteId, signal) });
  const title = review.data ? `Result for ${review.data.patientName}` : 'Result to review';
  return (
    <Page title={title} actions={<Link href={paths.resultsToReview()}>All results to review</Link>}>
      {review.isPending ? (
        <Spinner label="Loading result" />
      ) : review.isError ? (
        <p role="alert">{errorText(review.error)}</p>
      ) : (
        <div className="tw-results__detail">
          <dl className="tw-results__facts">
            <div>
              <dt>Result</dt>
              <dd>
                <SeverityBadge review={review.data} />
              </dd>
            </div>
            <div>
              <dt>Tests</dt>
              <dd>{review.data.tests.join(', ')}</dd>
            </div>
            <div>
              <dt>Flagged values</dt>
              <dd>{flaggedText(review.data, review.data.flags.length)}</dd>
            </div>
            <div>
              <dt>Ordered by</dt>
              <dd>{review.data.orderingProviderName}</dd>
            </div>
            <div>
              <dt>{review.data.status === 'PENDING' ? 'Waiting' : 'Received'}</dt>
              <dd>
                {review.data.status === 'PENDING'
                  ? `${waitedText(review.data.waitingSince)} (since ${when(review.data.waitingSince)})`
                  : when(review.data.receivedAt)}
              </dd>
            </div>
            <div>
              <dt>Patient</dt>
              <dd>
                <Link href={paths.patient(review.data.patientId)}>Open {review.data.patientName}'s chart</Link>
              </dd>
            </div>
          </dl>
          {review.data.status === 'PENDING' ? (
            <SignOffForm review={review.data} onTaskCreated={onTaskCreated} />
          ) : (
            <p className="tw-results__signed" role="status">
              Reviewed by {review.data.reviewedBy?.name} on {review.data.reviewedAt ? when(review.data.reviewedAt) : ''}
              {review.data.comment ? `: “${review.data.comment}”` : ''}
            </p>
          )}
          {review.data.followUpMessage ? <FollowUpMessage message={review.data.followUpMessage} /> : null}
          <section className="tw-results__lab" aria-label="Lab results and trends">
            {renderResult(review.data)}
          </section>
        </div>
      )}
    </Page>
  );
}

/** Carries no result or health detail, so it suits a patient without the ePHI waiver too. */
const DEFAULT_FOLLOW_UP_TEXT = 'Your recent lab results have been reviewed. Please call the office to go over them.';

function SignOffForm({ review, onTaskCreated }: { review: LabReview; onTaskCreated?: () => void }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const me = useCurrentUser();
  const users = usePracticeUsers();
  const patient = usePatient(review.patientId || null);
  const [comment, setComment] = useState('');
  const [withTask, setWithTask] = useState(false);
  const [taskText, setTaskText] = useState(`Follow up on ${review.tests.join(', ')} for ${review.patientName}`);
  const [assignee, setAssignee] = useState<string | null>(null);
  const [dueOn, setDueOn] = useState('');
  const [withMessage, setWithMessage] = useState(false);
  const [messageText, setMessageText] = useState(DEFAULT_FOLLOW_UP_TEXT);
  const assigned = assignee ?? me.data?.userId ?? null;
  const userOptions = (users.data ?? []).filter((u) => u.userStatus !== 'deleted').map((u) => ({ id: u.userId, label: displayUserName(u) }));
  const phone = patient.data ? primaryPhone(patient.data) : undefined;
  const signOff = useMutation({
    mutationFn: () =>
      signOffLabReview(review, {
        comment,
        followUpTask: withTask ? { text: taskText.trim(), assigned, dueOn: dueOn || null } : null,
        followUpMessage: withMessage ? { text: messageText.trim() } : null,
      }),
    onSuccess: (saved) => {
      refreshLabReviews(queryClient);
      if (withTask) onTaskCreated?.();
      if (saved.followUpMessage?.status === 'FAILED') {
        // Signed off, but the text did not go: the result stays open with the reason and the words kept.
        queryClient.setQueryData(resultsReviewKeys.detail(review.noteId), saved);
        return;
      }
      showToast('Result reviewed', {
        tone: 'success',
        description: `${review.patientName}: ${review.tests.join(', ')}${saved.followUpMessage ? '. Text sent.' : ''}`,
      });
      void navigate(paths.resultsToReview());
    },
  });
  return (
    <form
      className="tw-results__signoff"
      aria-label="Sign off this result"
      onSubmit={(e) => {
        e.preventDefault();
        if (withTask && !taskText.trim()) return;
        if (withMessage && !messageText.trim()) return;
        signOff.mutate();
      }}
    >
      <AriaTextField className="tw-field" value={comment} onChange={setComment} maxLength={2000}>
        <Label className="tw-field__label">Comment (optional)</Label>
        <TextArea className="tw-field__input tw-results__comment" rows={3} />
        <FieldError className="tw-field__error" />
      </AriaTextField>
      <Checkbox label="Create a follow-up task" isSelected={withTask} onChange={setWithTask} />
      {withTask ? (
        <fieldset className="tw-results__follow-up">
          <legend className="tw-visually-hidden">Follow-up task</legend>
          <TextField label="Follow-up task" value={taskText} onChange={setTaskText} isRequired isInvalid={!taskText.trim()} maxLength={2000} />
          <div className="tw-results__follow-up-row">
            <Select label="Assign to" options={userOptions} value={assigned} onChange={setAssignee} isDisabled={users.isPending} />
            <TextField label="Due date" type="date" value={dueOn} onChange={setDueOn} />
          </div>
        </fieldset>
      ) : null}
      <Checkbox label="Text the patient" isSelected={withMessage} onChange={setWithMessage} isDisabled={!review.patientId} />
      {withMessage ? (
        <fieldset className="tw-results__follow-up">
          <legend className="tw-visually-hidden">Text to the patient</legend>
          <p className="tw-results__to">
            {patient.isPending
              ? 'Looking up the patient’s phone…'
              : phone
                ? `To ${formatPhone(phone)}, from the practice’s number`
                : `${review.patientName} has no phone number to text. Add one in their profile.`}
          </p>
          {patient.data?.hipaaAuthorizationAccepted === false ? (
            <p className="tw-results__waiver">
              {review.patientName} has not signed the ePHI waiver: a text is not a secure channel, so keep results and health details out of it.
            </p>
          ) : null}
          <AriaTextField className="tw-field" value={messageText} onChange={setMessageText} isRequired isInvalid={!messageText.trim()} maxLength={1600}>
            <Label className="tw-field__label">
              Message to the patient
              <span className="tw-field__required" aria-hidden="true">
                {' '}
                *
              </span>
            </Label>
            <TextArea className="tw-field__input tw-results__comment" rows={3} />
            <FieldError className="tw-field__error">Type the message to the patient</FieldError>
          </AriaTextField>
        </fieldset>
      ) : null}
      {signOff.isError ? (
        <p className="tw-results__error" role="alert">
          {errorText(signOff.error)}
        </p>
      ) : null}
      <div className="tw-results__actions">
        <Button type="submit" variant="primary" isPending={signOff.isPending}>
          Reviewed
        </Button>
      </div>
    </form>
  );
}

/** What the sign-off texted the patient; a text the carrier refused is shown with why, its words kept to copy or send again. */
function FollowUpMessage({ message }: { message: LabReviewFollowUpMessage }) {
  if (message.status === 'SENT') {
    return (
      <p className="tw-results__sent">
        Texted to {formatPhone(message.to)}: “{message.text}”
      </p>
    );
  }
  return (
    <div className="tw-results__unsent">
      <p className="tw-results__error" role="alert">
        {LAB_REVIEW_MESSAGES.messageNotSent(message.error ?? '')}
      </p>
      <AriaTextField className="tw-field" value={message.text} isReadOnly>
        <Label className="tw-field__label">Message not sent to {formatPhone(message.to)}</Label>
        <TextArea className="tw-field__input tw-results__comment" rows={3} />
      </AriaTextField>
      <Link href={paths.smsConversation(message.to, message.from)}>Open the conversation</Link>
    </div>
  );
}

/** Admins: how long a critical value may wait unreviewed before it becomes an urgent task. */
function EscalationSettings() {
  const queryClient = useQueryClient();
  const settings = useQuery({ queryKey: resultsReviewKeys.settings(), queryFn: ({ signal }) => fetchLabReviewSettings(signal) });
  const [minutes, setMinutes] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: (value: number) => saveLabReviewSettings({ criticalEscalationMinutes: value }),
    onSuccess: (saved) => {
      queryClient.setQueryData(resultsReviewKeys.settings(), saved);
      setMinutes(null);
      showToast('Escalation time saved', { tone: 'success' });
    },
  });
  const value = minutes ?? String(settings.data?.criticalEscalationMinutes ?? DEFAULT_CRITICAL_ESCALATION_MINUTES);
  return (
    <form
      className="tw-card tw-results__settings"
      aria-label="Critical result escalation"
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate(Number(value));
      }}
    >
      <h2 className="tw-results__settings-title">Critical results</h2>
      <TextField
        label="Minutes before an unreviewed critical result becomes an urgent task"
        inputMode="numeric"
        value={value}
        onChange={setMinutes}
        isDisabled={settings.isPending}
      />
      {save.isError ? (
        <p className="tw-results__error" role="alert">
          {errorText(save.error)}
        </p>
      ) : null}
      <Button type="submit" size="sm" isPending={save.isPending}>
        Save
      </Button>
    </form>
  );
}
