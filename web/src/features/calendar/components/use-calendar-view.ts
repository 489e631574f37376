import { useMemo } from 'react';
import { useSearchParams } from 'react-router-dom';
import type { CalendarView } from '../../../../../shared/calendar/calendar-schema.js';
import { displayUserName, useCurrentUser, usePracticeUsers } from '../../../lib/practice.js';
import { useAppointmentRange, usePracticeCalendarSettings, useUserCalendarSettings } from '../api/calendar-api.js';
import { isIsoDay, parseView, rangeOf, todayIn, viewDays } from '../calendar-dates.js';

export interface CalendarNavigation {
  date?: string;
  view?: CalendarView;
  provider?: string | null;
}

/**
 * What the calendar shows, read from the address (spec shell §2.1: date, view, provider,
 * selectedDate) and the practice's and user's settings, with the data for it: the range's
 * appointments, the providers to filter by and whose working hours are shaded. go() moves the
 * address, so Back returns to the previous range.
 */
export function useCalendarView() {
  const [params, setParams] = useSearchParams();
  const settings = usePracticeCalendarSettings();
  const me = useCurrentUser();
  const timeZone = settings.data?.timeZone;
  const mine = useUserCalendarSettings(me.data?.userId);
  // Without a view in the address, the calendar opens on the user's own choice (My calendar).
  const view = params.get('view') ? parseView(params.get('view')) : (mine.data?.defaultView ?? 'week');
  const requested = params.get('date')?.slice(0, 10);
  const date = isIsoDay(requested) ? requested : timeZone ? todayIn(timeZone) : null;
  const days = useMemo(() => (date ? viewDays(view, date) : []), [view, date]);
  const range = timeZone && days.length ? rangeOf(days, timeZone) : null;
  const providerFilter = params.get('provider');
  const appointments = useAppointmentRange(range, providerFilter);
  const users = usePracticeUsers();
  const providers = (users.data ?? []).filter((u) => u.permissionGroup !== 'no_access' && u.userStatus !== 'deleted');
  // The grid shades the chosen provider's week, or the signed-in user's when every provider is shown.
  const shadedFor = providerFilter ?? me.data?.userId;
  const shadedSettings = useUserCalendarSettings(shadedFor ?? undefined);
  const chosen = providerFilter ? providers.find((u) => u.userId === providerFilter) : undefined;
  const shadedWhose = chosen ? `${displayUserName(chosen)}'s` : 'your';
  const selected = params.get('selectedDate');
  const selectedDate = isIsoDay(selected) ? selected : null;

  const go = (next: CalendarNavigation) => {
    const p = new URLSearchParams(params);
    if (next.date) p.set('date', next.date);
    if (next.view) p.set('view', next.view);
    if (next.provider !== undefined) {
      if (next.provider) p.set('provider', next.provider);
      else p.delete('provider');
    }
    setParams(p);
  };

  return {
    settings,
    currentUserId: me.data?.userId,
    timeZone,
    view,
    date,
    days,
    selectedDate,
    providerFilter,
    providers,
    appointments,
    shadedSettings,
    shadedWhose,
    go,
  };
}
