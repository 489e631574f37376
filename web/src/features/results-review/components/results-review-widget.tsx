import { useQuery } from '@tanstack/react-query';
import { waitedText } from '../../../../../shared/labs/lab-review-format.js';
import { Link } from '../../../components/ui/link.js';
import { Spinner } from '../../../components/ui/spinner.js';
import { NETWORK_ERROR_MESSAGE } from '../../../lib/api-error.js';
import { paths } from '../../../lib/paths.js';
import { useCan } from '../../../lib/permissions.js';
import { useShownAnswer } from '../../../lib/use-shown-answer.js';
import { fetchLabReviews, resultsReviewKeys } from '../api/results-review-api.js';
import { flaggedText, SeverityBadge } from './review-summary.js';
import '../results-review.css';

const SHOWN = 5;

/** Dashboard: the lab results waiting for my sign-off, critical and abnormal first. */
export function ResultsReviewWidget() {
  const mayReview = useCan('lab.review');
  const reviews = useShownAnswer(
    useQuery({ queryKey: resultsReviewKeys.list('PENDING'), queryFn: ({ signal }) => fetchLabReviews('PENDING', signal), enabled: mayReview }),
  );
  if (!mayReview) return <p className="tw-widget__empty">Lab results are reviewed by the providers who ordered them.</p>;
  if (reviews.status === 'pending') return <Spinner label="Loading results to review" />;
  if (reviews.status === 'error') return <p className="tw-widget__empty">{NETWORK_ERROR_MESSAGE}</p>;
  const list = reviews.data;
  return (
    <>
      {list.length === 0 ? (
        <p className="tw-widget__empty">No results waiting for your review.</p>
      ) : (
        <ul className="tw-widget__list">
          {list.slice(0, SHOWN).map((r) => (
            <li key={r.noteId} className="tw-widget__item tw-results-widget__item">
              <Link
                href={paths.resultToReview(r.noteId)}
                className="tw-widget__link"
                aria-label={`${r.patientName}, ${r.tests.join(', ')}, ${r.severity === 'normal' ? 'in range' : r.severity}`}
              >
                <SeverityBadge review={r} /> {r.patientName}
              </Link>
              <span className="tw-widget__meta">
                {flaggedText(r, 2)} · waiting {waitedText(r.waitingSince)}
              </span>
            </li>
          ))}
        </ul>
      )}
      <div className="tw-widget__footer">
        <Link href={paths.resultsToReview()}>{list.length > SHOWN ? `View all ${list.length} results to review` : 'View results to review'}</Link>
      </div>
    </>
  );
}
