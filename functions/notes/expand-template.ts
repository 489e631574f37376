import type { Note } from '../../shared/notes/note-schema.js';
import { emptyChart, expandPlaceholders, PlaceholderError, type ChartData } from '../../shared/templates/placeholders.js';
import { TEMPLATE_MESSAGES, type TemplateExpansion } from '../../shared/templates/template-schema.js';
import type { AuthContext } from '../lib/auth/auth-context.js';
import { writeAudit } from '../lib/audit/audit-repository.js';
import { NotFoundError, ValidationError } from '../lib/errors.js';
import { log } from '../lib/log.js';
import { listSection, type ChartSectionName, type StoredItem } from '../data/chart/chart-repository.js';
import { getUser } from '../data/users/user-repository.js';
import { requirePatient } from '../core/notes/note-common.js';
import { listPatientNotes } from '../data/notes/note-repository.js';
import { findTemplateIdByShortcut } from '../data/notes/template-repository.js';
import { requireVisibleTemplate } from './templates.js';

/** Chart sections for the placeholders; a section that fails to load expands to nothing (spec: template fetches yield empty substitutions). */
async function loadChart(practiceId: string, patientId: string): Promise<ChartData> {
  const chart = emptyChart();
  const load = async <S extends keyof ChartData & ChartSectionName>(s: S, into: (items: StoredItem<S>[]) => void) => {
    try {
      into(await listSection(practiceId, patientId, s));
    } catch (error) {
      log.warn('template chart section failed', { section: s, error: (error as Error)?.name });
    }
  };
  await Promise.all([
    load('allergies', (items) => (chart.allergies = items)),
    load('medications', (items) => (chart.medications = items)),
    load('freeformMedications', (items) => (chart.freeformMedications = items)),
    load('vaccines', (items) => (chart.vaccines = items)),
    load('diagnoses', (items) => (chart.diagnoses = items)),
    load('surgeries', (items) => (chart.surgeries = items)),
    load('familyHistory', (items) => (chart.familyHistory = items)),
    load('socialHistory', (items) => (chart.socialHistory = items)),
    load('general', (items) => (chart.general = items)),
  ]);
  return chart;
}

interface ExpandInput {
  patientId?: string | null;
  noteId?: string;
  timeZone?: string;
}

async function expand(auth: AuthContext, templateId: string, input: ExpandInput, now = new Date()): Promise<TemplateExpansion> {
  const template = await requireVisibleTemplate(auth, templateId);
  const patient = input.patientId ? await requirePatient(auth.practiceId, input.patientId) : null;
  const [user, notes, chart] = await Promise.all([
    getUser(auth.practiceId, auth.userId),
    patient ? listPatientNotes(auth.practiceId, patient.id) : Promise.resolve([] as Note[]),
    patient ? loadChart(auth.practiceId, patient.id) : Promise.resolve(emptyChart()),
  ]);
  const me = { name: user?.name || auth.name, npiNumber: user?.npiNumber ?? null, educationDegree: user?.educationDegree ?? null };
  try {
    const result = expandPlaceholders(template.body, {
      now,
      ...(input.timeZone ? { timeZone: input.timeZone } : {}),
      user: me,
      patient,
      chart,
      notes: notes.filter((n) => n.status !== 'DELETED'),
      ...(input.noteId ? { currentNoteId: input.noteId } : {}),
    });
    if (patient) await writeAudit(auth, { action: 'read', entity: 'TEMPLATE_EXPANSION', entityId: template.templateId, patientId: patient.id });
    return { templateId: template.templateId, ...result };
  } catch (error) {
    if (error instanceof PlaceholderError) throw new ValidationError(error.message);
    throw error;
  }
}

/** POST /v1/templates/{templateId}/expand */
export function expandTemplate(auth: AuthContext, templateId: string, input: ExpandInput): Promise<TemplateExpansion> {
  return expand(auth, templateId, input);
}

/** POST /v1/templates/expand-shortcut: the '/' menu's typed shortcut; unknown → 404 'Shortcode … not found'. */
export async function expandShortcut(auth: AuthContext, input: ExpandInput & { shortcut: string }): Promise<TemplateExpansion> {
  const id = await findTemplateIdByShortcut(auth.practiceId, input.shortcut);
  const template = id ? await requireVisibleTemplate(auth, id).catch(() => null) : null;
  if (!template || template.status !== 'active') throw new NotFoundError(TEMPLATE_MESSAGES.shortcodeNotFound(input.shortcut));
  return expand(auth, template.templateId, input);
}
