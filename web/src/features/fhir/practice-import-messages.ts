/** Settings > Data import's words. */
import type { ImportPreview, ImportSummary } from '../../../../shared/fhir/practice-import/run.js';

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

export const M = {
  title: 'Practice data import (FHIR)',
  hint: "Rebuild the practice from a whole-practice FHIR Bulk Data export (Tidewell's own, or another system's NDJSON): pick the export's folder, with its files/ folder of attached files, or its NDJSON files. Each patient's chart is found or made and brought in; a patient brought in before adds nothing. The import runs in this browser tab: keep this page open until it finishes. DevOps can run the same import with npm run practice -- import.",
  adminsOnly: 'Only admins can import the practice data.',
  pickLabel: 'Export to import',
  pickFolder: 'Choose export folder',
  pickFiles: 'Choose NDJSON files',
  folderInput: 'Export folder',
  filesInput: 'NDJSON files',
  noNdjson: 'The files picked hold no .ndjson file: pick the NDJSON files of a FHIR Bulk Data export.',
  noNdjsonInFolder: 'The folder picked holds no .ndjson file at its top: pick the folder the export was downloaded into.',
  noPatients: 'The files picked hold no Patient: pick the whole export, its Patient file too.',
  unreadable: 'The files picked could not be read. Pick them again.',
  found: (patients: number, resources: number, files: number) =>
    `Found ${plural(patients, 'patient')} and ${plural(resources, 'resource')} in ${plural(files, 'NDJSON file')}`,
  countsLabel: 'Resources found by type',
  attached: (named: number, here: number) =>
    `The export names ${plural(named, 'attached file')}; ${here} of them ${here === 1 ? 'is' : 'are'} in the folder picked.`,
  unassigned: (n: number, types: string[]) => `${plural(n, 'resource')} name no patient of the export and are left out: ${types.join(', ')}.`,
  practitioners: (n: number) => `${plural(n, 'practitioner')}: each is matched to a user of the practice by email, or listed for you to invite.`,
  earlier: (done: number, total: number) => `An earlier import brought in ${done} of ${total} patients: importing carries on from the next patient.`,
  allDone: (total: number) =>
    `All ${plural(total, 'patient')} of this export were brought in. Importing again sends them again; what is already here is not added twice.`,
  start: (n: number) => `Import ${plural(n, 'patient')}`,
  resume: (n: number) => `Resume import (${n} left)`,
  again: 'Import again',
  check: 'Check export (dry run)',
  previewHeading: 'Dry run: nothing was imported',
  previewWould: (p: ImportPreview) =>
    `Importing would bring in ${plural(p.patients, 'patient')} and ${plural(p.resources, 'resource')} in ${plural(p.requests, 'request')}; the practice was only read.`,
  previewCountsCaption: 'Would import, by resource type',
  previewUsersHeading: 'Practitioners and the practice’s users',
  previewMatched: (email: string) => `${email}: matched to a user by email`,
  previewUnmatched: (email: string) => `${email}: no user with this email (invite them in Settings > Team, or their notes keep only their name)`,
  previewNoPractitioners: 'The export names no practitioner with an email.',
  previewCalendar: (c: ImportSummary['calendar']) =>
    `Would make for the export's appointments: ${[...c.types.map((t) => `appointment type ${t}`), ...c.locations.map((l) => `booking location ${l}`)].join(', ')}.`,
  previewFilesCaption: (n: number, missing: number) =>
    `${plural(n, 'attached file')} named by the export${missing ? `; ${missing} not in the export picked (left out)` : ', all in the export picked'}`,
  previewNoFiles: 'The export names no attached file.',
  filePresent: 'Present',
  fileMissing: 'Missing',
  stop: 'Stop',
  stopping: 'Stopping after this patient…',
  progressLabel: 'Import progress',
  keepOpen: 'Keep this page open: the import runs in this browser tab and stops if you leave or close it.',
  leaveTitle: 'Leave while importing?',
  leaveBody:
    'The import runs in this browser tab: leaving stops it after the patient being sent. Choose the same export here later to resume from the next patient.',
  leaveConfirm: 'Leave and stop the import',
  running: (n: number, total: number, patient: string) =>
    n === 0 ? "Importing… reading the practice's users and calendar" : `Importing… ${n} of ${total} patients: ${patient}`,
  finished: (s: ImportSummary) =>
    s.sent === 0
      ? 'Nothing to import: every patient was brought in before.'
      : `Import finished: ${plural(s.created, 'new chart')}, ${plural(s.added, 'item')} added, ${s.present} already here, ${s.skipped} left out, ${plural(s.files, 'file')}${s.failed.length ? `; ${plural(s.failed.length, 'patient')} failed` : ''}.`,
  stopped: (done: number, total: number) => `Import stopped: ${done} of ${total} patients brought in. Resume to carry on from the next patient.`,
  resumedBefore: (n: number) => `${plural(n, 'patient')} brought in by an earlier import ${n === 1 ? 'was' : 'were'} not sent again.`,
  calendar: (c: ImportSummary['calendar']) =>
    `Made for the export's appointments: ${[...c.types.map((t) => `appointment type ${t}`), ...c.locations.map((l) => `booking location ${l}`)].join(', ')}.`,
  matched: (emails: string[]) => `Notes of ${emails.join(', ')} are theirs again (matched by email).`,
  unmatched: (emails: string[]) =>
    `Practitioners with no user here (invite them in Settings > Team, or their notes keep only their name): ${emails.join(', ')}.`,
  leftOutLabel: 'Left out, by type and reason',
  missingFiles: (n: number) =>
    `${plural(n, 'attached file')} named by the export ${n === 1 ? 'was' : 'were'} not among the files picked and ${n === 1 ? 'is' : 'are'} left out.`,
  failedHeading: (n: number) => `${plural(n, 'patient')} failed; importing again retries them`,
  failedLabel: 'Patients that failed',
  importedCaption: 'Patients brought in',
  newChart: 'New chart',
  chartHere: 'Already here',
  /** The table lists the last patients sent; a practice's thousands would outgrow the screen. */
  shown: 50,
  refused:
    'The API refused the import: only admins of this practice can import its data. Sign in again as an admin; importing carries on from the next patient.',
  unexpected: 'The import stopped unexpectedly. Import again to carry on from the next patient.',
} as const;
