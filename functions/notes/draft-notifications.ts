import type { Note } from '../../shared/notes/note-schema.js';
import type { Notification } from '../../shared/notifications/notification-schema.js';
import type { AuthContext } from '../lib/auth/auth-context.js';

/**
 * The notification store loads with the first draft written, not with the notes group's cold start,
 * which it would take over its 300 KB budget: reads and signed-note views never need it.
 */
const notifications = () => import('../data/notifications/notification-repository.js');

/*
 * The DRAFT notification of a note (spec notes §4): one open notification per draft note, found by
 * its source (the note id). Created UNREAD on the first draft save, updated on later saves,
 * COMPLETED when the note is signed; any extra open ones are deleted.
 */
const OPEN = (n: Notification) => n.notificationStatus !== 'COMPLETED' && n.notificationStatus !== 'DELETED';

/** A note's open DRAFT notifications, oldest first: the one to keep, then any extras. */
export async function openDrafts(practiceId: string, noteId: string): Promise<Notification[]> {
  const all = await (await notifications()).findLatestBySource(practiceId, 'DRAFT', noteId);
  return all.filter(OPEN).sort((a, b) => a.createdAt.localeCompare(b.createdAt));
}

const draftData = (note: Note) => ({ noteId: note.noteId, patientId: note.patientId });
/** Which kind of note waits ("Draft note", "Draft phone call"); the dashboard adds the patient's name. */
const draftText = (note: Note) => `Draft ${note.noteType.toLowerCase().replaceAll('_', ' ')}`;

/** A new draft notification is UNREAD for the person it is assigned to. */
async function createDraftNotification(auth: AuthContext, note: Note, assigned: string): Promise<Notification> {
  return (await notifications()).createNotification(
    auth.practiceId,
    {
      notificationType: 'DRAFT',
      notificationStatus: 'UNREAD',
      sourceId: note.noteId,
      relatedTo: note.noteId,
      assigned,
      patientId: note.patientId,
      text: draftText(note),
      data: draftData(note),
    },
    auth,
  );
}

async function dropExtras(auth: AuthContext, extras: Notification[]): Promise<void> {
  const { deleteNotification } = await notifications();
  for (const extra of extras) await deleteNotification(auth.practiceId, extra.notificationId, auth);
}

/** `open` is the note's open drafts when the caller started that read beside the note's own. */
export async function draftSaved(auth: AuthContext, note: Note, open = openDrafts(auth.practiceId, note.noteId)): Promise<Notification> {
  const [first, ...extras] = await open;
  await dropExtras(auth, extras);
  if (!first) return createDraftNotification(auth, note, auth.userId);
  // The version the by-source query answered is written over without reading it again.
  return (await notifications()).updateNotification(
    auth.practiceId,
    first.notificationId,
    { patientId: note.patientId, data: draftData(note), text: draftText(note) },
    auth,
    { latest: first },
  );
}

export async function draftSigned(auth: AuthContext, note: Note): Promise<void> {
  const [first, ...extras] = await openDrafts(auth.practiceId, note.noteId);
  await dropExtras(auth, extras);
  if (first)
    await (await notifications()).updateNotification(auth.practiceId, first.notificationId, { notificationStatus: 'COMPLETED', data: draftData(note) }, auth);
}

export async function draftRemoved(auth: AuthContext, note: Note): Promise<void> {
  await dropExtras(auth, await openDrafts(auth.practiceId, note.noteId));
}

/** Assigning creates or updates the DRAFT notification, UNREAD for the new assignee. */
export async function draftAssigned(auth: AuthContext, note: Note, userId: string): Promise<Notification> {
  const [first, ...extras] = await openDrafts(auth.practiceId, note.noteId);
  await dropExtras(auth, extras);
  if (!first) return createDraftNotification(auth, note, userId);
  return (await notifications()).updateNotification(
    auth.practiceId,
    first.notificationId,
    { assigned: userId, notificationStatus: 'UNREAD', data: draftData(note) },
    auth,
  );
}
