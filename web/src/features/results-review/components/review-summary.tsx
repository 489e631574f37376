import type { LabReview } from '../../../../../shared/labs/lab-review-format.js';
import { Badge } from '../../../components/ui/badge.js';

const FLAG = { high: 'High', low: 'Low', abnormal: 'Abnormal' } as const;

/** Critical, Abnormal or nothing: the word, never the colour alone. */
export function SeverityBadge({ review }: { review: Pick<LabReview, 'severity'> }) {
  if (review.severity === 'critical') return <Badge tone="danger">Critical</Badge>;
  if (review.severity === 'abnormal') return <Badge tone="warning">Abnormal</Badge>;
  return <Badge tone="neutral">In range</Badge>;
}

/** "Potassium 9.1 mmol/L (critical high), WBC 12.4 (high)"; the first few, then how many more. */
export function flaggedText(review: Pick<LabReview, 'flags'>, shown = 3): string {
  if (review.flags.length === 0) return 'All values in range';
  const parts = review.flags.slice(0, shown).map((f) => `${f.text} ${f.value} (${f.critical ? 'critical ' : ''}${FLAG[f.flag].toLowerCase()})`);
  const more = review.flags.length - shown;
  return more > 0 ? `${parts.join(', ')}, ${more} more` : parts.join(', ');
}
