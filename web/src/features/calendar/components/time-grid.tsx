import { useEffect, useRef } from 'react';
import type { AppointmentOccurrence } from '../../../../../shared/calendar/calendar-responses.js';
import { ARRIVAL_STATUS_LABELS } from '../../../../../shared/calendar/calendar-schema.js';
import type { ShadedSpan } from '../../../../../shared/calendar/working-hours.js';
import { minutesOfDay, timeLabel } from '../calendar-dates.js';
import { HOUR_PX, layout, lengthOf } from './event-layout.js';
import { dayHeading, occurrenceLabel } from './occurrence-text.js';
import { useEventDrag } from './use-event-drag.js';

const FIRST_VISIBLE_HOUR = 7;

/** The day, week and work-week views: one column a day, an hour a row, working hours shaded, appointments placed by time. */
export function TimeGrid({
  days,
  today,
  byDay,
  timeZone,
  onOpen,
  onSlot,
  onChange,
  shading,
}: {
  days: string[];
  today: string;
  byDay: Map<string, AppointmentOccurrence[]>;
  timeZone: string;
  onOpen: (o: AppointmentOccurrence) => void;
  onSlot: (day: string, time: string) => void;
  onChange: (o: AppointmentOccurrence, start: string, end: string) => void;
  shading: (day: string) => ShadedSpan[];
}) {
  const scroller = useRef<HTMLDivElement>(null);
  const { drag, target, begin, track, finish, cancel, keys, justDragged } = useEventDrag({ days, timeZone, onChange });
  useEffect(() => {
    if (scroller.current) scroller.current.scrollTop = FIRST_VISIBLE_HOUR * HOUR_PX - 12;
  }, []);
  const hours = Array.from({ length: 24 }, (_, h) => h);

  return (
    <div className="tw-calendar__grid" style={{ ['--tw-cal-days' as string]: days.length }}>
      <div className="tw-calendar__grid-head" aria-hidden="true">
        <span />
        {days.map((d) => (
          <span key={d} className={d === today ? 'tw-calendar__today' : undefined}>
            {dayHeading(d)}
          </span>
        ))}
      </div>
      <div className="tw-calendar__scroll" ref={scroller} tabIndex={0} role="region" aria-label="Appointments by time">
        <div className="tw-calendar__body" style={{ height: 24 * HOUR_PX }}>
          <div className="tw-calendar__hours" aria-hidden="true">
            {hours.map((h) => (
              <span key={h} style={{ top: h * HOUR_PX }}>
                {h === 0 ? '' : `${h % 12 || 12} ${h < 12 ? 'AM' : 'PM'}`}
              </span>
            ))}
          </div>
          {days.map((d) => {
            const list = byDay.get(d) ?? [];
            const placed = layout(list);
            return (
              <ul key={d} className="tw-calendar__day" aria-label={`${dayHeading(d)}: ${list.length} appointment${list.length === 1 ? '' : 's'}`}>
                {shading(d).map((span) => (
                  <li
                    key={`${span.kind}-${span.start}`}
                    className={`tw-calendar__shade tw-calendar__shade--${span.kind}`}
                    data-shade={span.kind}
                    style={{ top: (span.start / 60) * HOUR_PX, height: ((span.end - span.start) / 60) * HOUR_PX }}
                    aria-hidden="true"
                    title={span.label}
                  >
                    {span.kind === 'blocked' ? <span>{span.label}</span> : null}
                  </li>
                ))}
                {hours.map((h) => (
                  // Empty hours book with a click; the keyboard books with the Book appointment button.
                  <li
                    key={h}
                    className="tw-calendar__slot"
                    style={{ top: h * HOUR_PX, height: HOUR_PX }}
                    aria-hidden="true"
                    onClick={() => onSlot(d, `${String(h).padStart(2, '0')}:00`)}
                  />
                ))}
                {list.map((o) => {
                  const key = `${o.appointmentId}-${o.occurrenceDay}`;
                  const dragging = drag?.key === key && drag.moved ? target(drag) : null;
                  const top = (minutesOfDay(o.start, timeZone) / 60) * HOUR_PX;
                  const length = dragging ? dragging.length : lengthOf(o);
                  const height = Math.max(20, (length / 60) * HOUR_PX);
                  const p = placed.get(o)!;
                  const transform = dragging ? `translate(${dragging.days * drag!.columnWidth}px, ${(dragging.minutes / 60) * HOUR_PX}px)` : undefined;
                  return (
                    <li
                      key={key}
                      className={`tw-calendar__event-item${dragging ? ' tw-calendar__event-item--dragging' : ''}`}
                      style={{ top, height, left: `${(p.column / p.columns) * 100}%`, width: `${100 / p.columns}%`, transform }}
                    >
                      <button
                        type="button"
                        className="tw-calendar__event"
                        style={{ borderLeftColor: o.color }}
                        aria-label={occurrenceLabel(o, timeZone)}
                        aria-describedby="tw-calendar-legend"
                        aria-keyshortcuts="Alt+ArrowUp Alt+ArrowDown Alt+ArrowLeft Alt+ArrowRight Alt+Shift+ArrowUp Alt+Shift+ArrowDown"
                        onPointerDown={(e) => begin(e, o, 'move')}
                        onPointerMove={track}
                        onPointerUp={finish}
                        onPointerCancel={cancel}
                        onKeyDown={(e) => keys(e, o)}
                        onClick={() => (justDragged.current ? undefined : onOpen(o))}
                      >
                        <strong>{o.patientName}</strong>
                        <span>
                          {timeLabel(o.start, timeZone)} · {o.appointmentTypeName}
                          {o.arrivalStatus && o.arrivalStatus !== 'scheduled' ? ` · ${ARRIVAL_STATUS_LABELS[o.arrivalStatus]}` : ''}
                        </span>
                      </button>
                      <span
                        className="tw-calendar__resize"
                        data-testid="resize"
                        aria-hidden="true"
                        onPointerDown={(e) => begin(e, o, 'resize')}
                        onPointerMove={track}
                        onPointerUp={finish}
                        onPointerCancel={cancel}
                      />
                    </li>
                  );
                })}
              </ul>
            );
          })}
        </div>
      </div>
    </div>
  );
}
