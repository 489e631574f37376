import { markerWritten, setKeysIf, writeMarker } from '../../lib/table/backfill-marker.js';
import { queryAll } from '../../lib/table/query-all.js';
import type { Note } from '../../../shared/notes/note-schema.js';
import { CHART_NOTE_KEYS_MARKER, chartNoteKeys } from './note-repository.js';

// Kept out of the repository so no Lambda bundle carries it.
/**
 * Maintenance, once per practice (the local runtime at start, `practice deploy` after the app stack):
 * gives the notes written before the chart-notes index their keys, then marks the practice so the
 * chart's timeline reads the patient's notes without their texts. Until then it reads every note
 * of the patient.
 */
export async function backfillChartNoteKeys(practiceId: string): Promise<number> {
  if (await markerWritten(practiceId, CHART_NOTE_KEYS_MARKER)) return 0;
  const items = await queryAll({
    KeyConditionExpression: 'practiceId = :p AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':p': practiceId, ':prefix': 'NOTE#' },
    ProjectionExpression: 'sk, entityType, noteId, noteType, patientId, eventTimestamp, gsi2pk',
  });
  let written = 0;
  for (const item of items) {
    if (item.entityType !== 'NOTE' || item.gsi2pk !== undefined) continue;
    const keys = chartNoteKeys(practiceId, item as Pick<Note, 'noteType' | 'patientId' | 'eventTimestamp' | 'noteId'>);
    if (!keys) continue;
    // Moved to another patient or redated meanwhile: that write gave the note its own keys.
    const unchanged = 'patientId = :patient AND eventTimestamp = :at AND attribute_not_exists(gsi2pk)';
    if (await setKeysIf(practiceId, item.sk, keys, unchanged, { ':patient': item.patientId, ':at': item.eventTimestamp })) written++;
  }
  await writeMarker(practiceId, CHART_NOTE_KEYS_MARKER, 'NOTE_KEYS', written);
  return written;
}
