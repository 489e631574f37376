import { noteSaveProblem, type SaveCandidate, type SaveProblem } from '../../../../../shared/notes/note-rules.js';
import { rxProblem } from '../../../../../shared/notes/rx-schema.js';

/** The shared save rules plus a prescription's field rules (kept out of note-rules so the API's notes cold start stays small). */
export function saveProblem(n: SaveCandidate, patientDob?: string | null): SaveProblem | null {
  const problem = noteSaveProblem(n, patientDob);
  if (problem || n.noteType !== 'RX') return problem;
  const rx = rxProblem(n.data);
  return rx ? { message: rx.message, fieldErrors: { [rx.field]: rx.message } } : null;
}
