import { useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import type { AppointmentOccurrence } from '../../../../../shared/calendar/calendar-responses.js';
import { shiftWallClock } from '../calendar-dates.js';
import { HOUR_PX, lengthOf, snap, SNAP_MINUTES } from './event-layout.js';

export interface Drag {
  key: string;
  occurrence: AppointmentOccurrence;
  mode: 'move' | 'resize';
  x0: number;
  y0: number;
  columnWidth: number;
  dx: number;
  dy: number;
  moved: boolean;
}

/** Moving and resizing an appointment in the time grid, by pointer drag or by Alt+arrow keys; onChange gets the new start and end. */
export function useEventDrag({
  days,
  timeZone,
  onChange,
}: {
  days: string[];
  timeZone: string;
  onChange: (o: AppointmentOccurrence, start: string, end: string) => void;
}) {
  const [drag, setDrag] = useState<Drag | null>(null);
  // A drag ends with a click on the same button; that click must not open the appointment.
  const justDragged = useRef(false);

  const begin = (event: PointerEvent<HTMLElement>, o: AppointmentOccurrence, mode: Drag['mode']) => {
    if (event.button !== 0) return;
    const column = (event.currentTarget.closest('.tw-calendar__day') as HTMLElement | null)?.getBoundingClientRect().width ?? 100;
    event.currentTarget.setPointerCapture(event.pointerId);
    if (mode === 'resize') event.stopPropagation();
    setDrag({
      key: `${o.appointmentId}-${o.occurrenceDay}`,
      occurrence: o,
      mode,
      x0: event.clientX,
      y0: event.clientY,
      columnWidth: column,
      dx: 0,
      dy: 0,
      moved: false,
    });
  };
  const track = (event: PointerEvent<HTMLElement>) => {
    if (!drag) return;
    const dx = event.clientX - drag.x0;
    const dy = event.clientY - drag.y0;
    setDrag({ ...drag, dx, dy, moved: drag.moved || Math.abs(dx) > 4 || Math.abs(dy) > 4 });
  };
  /** Where the drag would put the occurrence: whole days sideways (within the view), quarter hours up and down. */
  const target = (d: Drag) => {
    const minutes = snap((d.dy / HOUR_PX) * 60);
    if (d.mode === 'resize') return { days: 0, minutes: 0, length: Math.max(SNAP_MINUTES, lengthOf(d.occurrence) + minutes) };
    const from = days.indexOf(d.occurrence.occurrenceDay);
    const shift = Math.max(-from, Math.min(days.length - 1 - from, Math.round(d.dx / d.columnWidth)));
    return { days: shift, minutes, length: lengthOf(d.occurrence) };
  };
  const finish = () => {
    if (!drag) return;
    setDrag(null);
    if (!drag.moved) return;
    justDragged.current = true;
    window.setTimeout(() => (justDragged.current = false), 0);
    const t = target(drag);
    if (t.days === 0 && t.minutes === 0 && t.length === lengthOf(drag.occurrence)) return;
    const start = shiftWallClock(drag.occurrence.start, timeZone, t.days, t.minutes);
    onChange(drag.occurrence, start, new Date(new Date(start).getTime() + t.length * 60_000).toISOString());
  };
  const cancel = () => setDrag(null);
  /** The keyboard's move and resize: Alt+Up/Down a quarter hour, Alt+Left/Right a day, Alt+Shift+Up/Down the length. */
  const keys = (event: KeyboardEvent<HTMLButtonElement>, o: AppointmentOccurrence) => {
    if (!event.altKey) return;
    const up = event.key === 'ArrowUp';
    const down = event.key === 'ArrowDown';
    const side = event.key === 'ArrowLeft' ? -1 : event.key === 'ArrowRight' ? 1 : 0;
    if (!up && !down && !side) return;
    event.preventDefault();
    if (event.shiftKey) {
      if (side) return;
      const length = Math.max(SNAP_MINUTES, lengthOf(o) + (up ? -SNAP_MINUTES : SNAP_MINUTES));
      if (length !== lengthOf(o)) onChange(o, o.start, new Date(new Date(o.start).getTime() + length * 60_000).toISOString());
      return;
    }
    const start = shiftWallClock(o.start, timeZone, side, side ? 0 : up ? -SNAP_MINUTES : SNAP_MINUTES);
    onChange(o, start, new Date(new Date(start).getTime() + lengthOf(o) * 60_000).toISOString());
  };

  return { drag, target, begin, track, finish, cancel, keys, justDragged };
}
