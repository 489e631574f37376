import { createHash } from 'node:crypto';

/** One conversation per pair of numbers: its id is derived from the pair, so creating it twice makes one. */
export function conversationIdFor(practicePhone: string, patientPhone: string): string {
  return `cnv_${createHash('sha256').update(`${practicePhone}\u0000${patientPhone}`).digest('hex').slice(0, 24)}`;
}
