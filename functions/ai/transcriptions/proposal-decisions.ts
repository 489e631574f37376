/**
 * A chart proposal is written only when the clinician accepts it, through the chart's own use
 * cases (the same rules, versioning and audit as the chart screens), with a noteDataLinks entry
 * naming the note, the run (linkId) and the proposal (dataId). Rejecting writes nothing to the chart.
 * The chart and notes code loads only on an accept (rare next to the polls this Lambda answers).
 */
import type { ChartProposal, ProposalDecisionBody } from '../../../shared/ai/transcription-schema.js';
import { writeAudit } from '../../lib/audit/audit-repository.js';
import type { AuthContext } from '../../lib/auth/auth-context.js';
import { ConflictError, NotFoundError } from '../../lib/errors.js';
import { isConditionFailure } from '../../lib/table/condition-failure.js';
import { requireTranscription, updateTranscription, type TranscriptionRecord } from '../../data/transcriptions/transcription-repository.js';

type Written = NonNullable<ChartProposal['written']>;

const today = (now: Date) => now.toISOString().slice(0, 10);

function link(record: TranscriptionRecord, proposal: ChartProposal, dataType: 'medication' | 'allergy' | 'diagnosis') {
  return [{ dataType, dataId: proposal.proposalId, linkId: record.transcriptionId, noteId: record.noteId }];
}

const text = (value: string | number | undefined) => (value === undefined ? undefined : String(value));

async function writeToChart(auth: AuthContext, record: TranscriptionRecord, proposal: ChartProposal, now: Date): Promise<Written> {
  const { createSectionItemFrom, listSectionItems, updateSectionItemFrom, parseOrThrow } = await import('../../core/chart/section-crud.js');
  const { ALLERGIES, DIAGNOSES, FAMILY_HISTORY, MEDICATIONS } = await import('../../core/chart/sections.js');
  const f = proposal.fields;
  switch (proposal.kind) {
    case 'medication-start': {
      const input = parseOrThrow(MEDICATIONS.input, {
        productName: text(f.productName),
        ...(f.strength !== undefined ? { strength: text(f.strength), strengthUOM: text(f.strengthUOM) ?? '' } : {}),
        status: 'Active',
        start: today(now),
        noteId: record.noteId,
        noteDataLinks: link(record, proposal, 'medication'),
      });
      const stored = await createSectionItemFrom(auth, MEDICATIONS, record.patientId, input);
      return { entity: 'medication', ident: stored.ident };
    }
    case 'medication-stop': {
      const name = String(f.productName ?? '').toLowerCase();
      const items = await listSectionItems(auth, MEDICATIONS, record.patientId);
      const active = items.find((m) => m.productName.toLowerCase().startsWith(name) && m.status !== 'Complete');
      if (!active) throw new ConflictError(`No active medication named ${String(f.productName)} is on the chart`);
      await updateSectionItemFrom(auth, MEDICATIONS, record.patientId, active.ident, {
        status: 'Complete',
        end: today(now),
        noteDataLinks: [...(active.noteDataLinks ?? []), ...link(record, proposal, 'medication')],
      });
      return { entity: 'medication', ident: active.ident };
    }
    case 'allergy': {
      const input = parseOrThrow(ALLERGIES.input, { name: text(f.name), active: true, noteDataLinks: link(record, proposal, 'allergy') });
      const stored = await createSectionItemFrom(auth, ALLERGIES, record.patientId, input);
      return { entity: 'allergy', ident: stored.ident };
    }
    case 'diagnosis': {
      const input = parseOrThrow(DIAGNOSES.input, {
        name: text(f.name),
        icd10CodeId: text(f.icd10CodeId),
        pinned: false,
        active: true,
        date: today(now).slice(0, 7),
        noteDataLinks: link(record, proposal, 'diagnosis'),
      });
      const stored = await createSectionItemFrom(auth, DIAGNOSES, record.patientId, input);
      return { entity: 'diagnosis', ident: stored.ident };
    }
    case 'past-history': {
      // A condition the patient had: on the chart as an inactive diagnosis (no month: it was not dated at the visit).
      const input = parseOrThrow(DIAGNOSES.input, {
        name: text(f.name),
        icd10CodeId: text(f.icd10CodeId),
        pinned: false,
        active: false,
        noteDataLinks: link(record, proposal, 'diagnosis'),
      });
      const stored = await createSectionItemFrom(auth, DIAGNOSES, record.patientId, input);
      return { entity: 'diagnosis', ident: stored.ident };
    }
    case 'family-history': {
      const input = parseOrThrow(FAMILY_HISTORY.input, {
        diagnosis: text(f.name),
        icd10CodeId: text(f.icd10CodeId),
        ...(f.relation !== undefined ? { family: [String(f.relation)] } : {}),
        noteDataLinks: link(record, proposal, 'diagnosis'),
      });
      const stored = await createSectionItemFrom(auth, FAMILY_HISTORY, record.patientId, input);
      return { entity: 'family_history', ident: stored.ident };
    }
    case 'vitals': {
      // Vitals live in a VITALS note (spec notes §3): a draft the clinician reviews and signs.
      const { createNote } = await import('../../core/notes/create-note.js');
      const vitals = Object.fromEntries(Object.entries(f).filter(([, v]) => typeof v === 'number'));
      // An impossible spoken value is refused with its range; an unusual one waits in the draft for the clinician to confirm.
      const note = await createNote(
        auth,
        { noteType: 'VITALS', patientId: record.patientId, data: { ...vitals, transcriptionId: record.transcriptionId } },
        now,
        { reviewUnusualVitals: true },
      );
      return { entity: 'vitals-note', ident: note.noteId };
    }
  }
}

/** POST /v1/transcriptions/{id}/proposals/{proposalId} {decision}: accept writes the chart, reject only records the decision. */
export async function decideProposal(
  auth: AuthContext,
  transcriptionId: string,
  proposalId: string,
  body: ProposalDecisionBody,
  now = new Date(),
): Promise<ChartProposal> {
  const record = await requireTranscription(auth.practiceId, transcriptionId);
  const index = (record.proposals ?? []).findIndex((p) => p.proposalId === proposalId);
  if (index < 0) throw new NotFoundError('Chart proposal not found');
  const proposal = record.proposals![index];
  if (proposal.status !== 'PROPOSED') throw new ConflictError(`This chart change was already ${proposal.status === 'ACCEPTED' ? 'accepted' : 'rejected'}`);
  const decided: ChartProposal =
    body.decision === 'accept'
      ? { ...proposal, status: 'ACCEPTED', written: await writeToChart(auth, record, proposal, now) }
      : { ...proposal, status: 'REJECTED' };
  const proposals = record.proposals!.map((p, i) => (i === index ? decided : p));
  try {
    await updateTranscription(auth.practiceId, transcriptionId, { proposals }, { now, onlyIfProposal: { index, status: 'PROPOSED' } });
  } catch (error) {
    if (isConditionFailure(error)) throw new ConflictError('This chart change was already decided');
    throw error;
  }
  await writeAudit(auth, { action: 'update', entity: 'TRANSCRIPTION', entityId: `${transcriptionId}/${proposalId}`, patientId: record.patientId });
  return decided;
}
