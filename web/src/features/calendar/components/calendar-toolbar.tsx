import type { CalendarView } from '../../../../../shared/calendar/calendar-schema.js';
import { Button } from '../../../components/ui/button.js';
import { Select } from '../../../components/ui/select.js';
import { Spinner } from '../../../components/ui/spinner.js';
import { displayUserName, type PracticeUser } from '../../../lib/practice.js';
import { rangeTitle, stepDay } from '../calendar-dates.js';
import type { CalendarNavigation } from './use-calendar-view.js';

const VIEW_LABELS: Record<CalendarView, string> = { day: 'Day', week: 'Week', work_week: 'Work week', month: 'Month', agenda: 'Agenda' };
const STEP_LABELS: Record<CalendarView, string> = { day: 'day', week: 'week', work_week: 'week', month: 'month', agenda: '30 days' };

/** Above the calendar: Today, previous and next range with its title, the provider filter and the view buttons. */
export function CalendarToolbar({
  view,
  date,
  days,
  today,
  fetching,
  providers,
  providerFilter,
  go,
}: {
  view: CalendarView;
  date: string;
  days: string[];
  today: string;
  fetching: boolean;
  providers: PracticeUser[];
  providerFilter: string | null;
  go: (next: CalendarNavigation) => void;
}) {
  return (
    <div className="tw-calendar__toolbar">
      <div className="tw-calendar__nav">
        <Button onPress={() => go({ date: today })}>Today</Button>
        <Button aria-label={`Previous ${STEP_LABELS[view]}`} onPress={() => go({ date: stepDay(view, date, -1) })}>
          ‹
        </Button>
        <Button aria-label={`Next ${STEP_LABELS[view]}`} onPress={() => go({ date: stepDay(view, date, 1) })}>
          ›
        </Button>
        <h2 className="tw-calendar__title" aria-live="polite">
          {rangeTitle(view, days, date)}
        </h2>
        {fetching ? <Spinner label="Loading appointments" /> : null}
      </div>
      <Select
        label="Provider"
        className="tw-calendar__provider"
        options={[{ id: 'all', label: 'All providers' }, ...providers.map((u) => ({ id: u.userId, label: displayUserName(u) }))]}
        value={providerFilter ?? 'all'}
        onChange={(id) => go({ provider: id && id !== 'all' ? id : null })}
      />
      <div className="tw-calendar__views" role="group" aria-label="View">
        {(Object.keys(VIEW_LABELS) as CalendarView[]).map((v) => (
          <Button key={v} variant={v === view ? 'primary' : 'secondary'} aria-pressed={v === view} onPress={() => go({ view: v })}>
            {VIEW_LABELS[v]}
          </Button>
        ))}
      </div>
    </div>
  );
}
