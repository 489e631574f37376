import { SURGERIES } from '../../chart/sections.js';
import { nameOfRef, type BundleContext } from './context.js';
import type { Json, PlanOutcome } from './planned.js';
import { day, noteOf, outsideCodings, text } from './read.js';

const NOT_PERFORMED: Record<string, string> = {
  'not-done': 'The procedure was not done',
  'entered-in-error': 'The procedure was entered in error',
  preparation: 'The procedure has not been done yet',
};

/** A Procedure becomes a surgery, once it was done. */
export function planProcedure(r: Json, bundle: BundleContext): PlanOutcome {
  const name = text(r.code) ?? 'Procedure';
  const summary = `Surgery: ${name}`;
  const notDone = NOT_PERFORMED[r.status];
  if (notDone) return { summary, reason: `${notDone}${r.status === 'not-done' && text(r.statusReason) ? ` (${text(r.statusReason)})` : ''}` };
  const performer = nameOfRef(r.performer?.[0]?.actor, bundle);
  return {
    summary,
    planned: {
      kind: 'section',
      section: 'surgeries',
      spec: SURGERIES,
      input: {
        name,
        description: [noteOf(r), performer ? `Performed by ${performer}` : undefined].filter(Boolean).join('\n') || undefined,
        date: day(r.performedDateTime ?? r.performedPeriod?.start ?? r.performedString),
        codings: outsideCodings(r.code),
      },
    },
  };
}
