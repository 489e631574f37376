import type { AppointmentOccurrence } from '../../../../../shared/calendar/calendar-responses.js';

/** The height of one hour in the day and week grids. */
export const HOUR_PX = 48;
/** Dragging and the keyboard move and resize in quarter hours. */
export const SNAP_MINUTES = 15;

export const snap = (minutes: number) => Math.round(minutes / SNAP_MINUTES) * SNAP_MINUTES;
export const lengthOf = (o: AppointmentOccurrence) => Math.round((new Date(o.end).getTime() - new Date(o.start).getTime()) / 60_000);

/** Side-by-side columns for overlapping appointments of one day (different providers). */
export function layout(list: AppointmentOccurrence[]): Map<AppointmentOccurrence, { column: number; columns: number }> {
  const out = new Map<AppointmentOccurrence, { column: number; columns: number }>();
  let cluster: AppointmentOccurrence[] = [];
  let clusterEnd = '';
  const flush = () => {
    const ends: string[] = [];
    const columnOf = new Map<AppointmentOccurrence, number>();
    for (const o of cluster) {
      let c = ends.findIndex((end) => end <= o.start);
      if (c === -1) c = ends.length;
      ends[c] = o.end;
      columnOf.set(o, c);
    }
    for (const o of cluster) out.set(o, { column: columnOf.get(o)!, columns: ends.length });
    cluster = [];
  };
  for (const o of [...list].sort((a, b) => a.start.localeCompare(b.start))) {
    if (cluster.length && o.start >= clusterEnd) flush();
    cluster.push(o);
    clusterEnd = clusterEnd > o.end && cluster.length > 1 ? clusterEnd : o.end;
  }
  flush();
  return out;
}
