import { randomUUID } from 'node:crypto';
import { placeholderKeys } from '../../shared/templates/placeholders.js';
import { Template, TEMPLATE_MESSAGES, TemplateInput, type TemplateLinkBody } from '../../shared/templates/template-schema.js';
import type { AuthContext } from '../lib/auth/auth-context.js';
import { writeAudit } from '../lib/audit/audit-repository.js';
import { ForbiddenError, NotFoundError } from '../lib/errors.js';
import { requireNote } from '../data/notes/note-repository.js';
import { deleteTemplate, getTemplate, listTemplates, putTemplate, putTemplateLink } from '../data/notes/template-repository.js';

type Parsed = ReturnType<typeof TemplateInput.parse>;

const visibleTo = (auth: AuthContext) => (t: Template) => !t.private || t.ownerUserId === auth.userId;

/** GET /v1/practices/templates: the practice's templates plus the caller's private ones. */
export async function listPracticeTemplates(auth: AuthContext, q: { status?: 'active' | 'inactive'; shortcut?: string }): Promise<{ templates: Template[] }> {
  const prefix = q.shortcut?.toLowerCase();
  const templates = (await listTemplates(auth.practiceId))
    .filter(visibleTo(auth))
    .filter((t) => !q.status || t.status === q.status)
    .filter((t) => !prefix || t.shortcut.toLowerCase().startsWith(prefix));
  return { templates };
}

export async function requireVisibleTemplate(auth: AuthContext, id: string): Promise<Template> {
  const t = await getTemplate(auth.practiceId, id);
  if (!t || !visibleTo(auth)(t)) throw new NotFoundError(TEMPLATE_MESSAGES.notFound);
  return t;
}

export async function createTemplate(auth: AuthContext, input: Parsed, now = new Date()): Promise<Template> {
  const at = now.toISOString();
  const t: Template = {
    templateId: randomUUID(),
    ...input,
    transformKeys: placeholderKeys(input.body),
    ownerUserId: auth.userId,
    createdAt: at,
    updatedAt: at,
  };
  return putTemplate(auth.practiceId, t, null);
}

export async function updateTemplate(auth: AuthContext, id: string, input: Parsed, now = new Date()): Promise<Template> {
  const current = await requireVisibleTemplate(auth, id);
  if (current.private && current.ownerUserId !== auth.userId) throw new ForbiddenError(TEMPLATE_MESSAGES.notYours);
  const next: Template = { ...current, ...input, transformKeys: placeholderKeys(input.body), updatedAt: now.toISOString() };
  if (next.updatedAt <= current.updatedAt) next.updatedAt = new Date(Date.parse(current.updatedAt) + 1).toISOString();
  return putTemplate(auth.practiceId, next, current);
}

export async function removeTemplate(auth: AuthContext, id: string): Promise<{ templateId: string }> {
  const current = await requireVisibleTemplate(auth, id);
  await deleteTemplate(auth.practiceId, current);
  return { templateId: id };
}

/** POST /v1/template-links: records that a template was applied to a note. */
export async function linkTemplate(auth: AuthContext, body: TemplateLinkBody, now = new Date()) {
  await requireVisibleTemplate(auth, body.templateId);
  const note = await requireNote(auth.practiceId, body.interactionId);
  const link = { templateId: body.templateId, interactionId: body.interactionId, linkedBy: auth.userId, linkedAt: now.toISOString() };
  await putTemplateLink(auth.practiceId, link);
  await writeAudit(auth, { action: 'create', entity: 'TEMPLATE_LINK', entityId: body.templateId, ...(note.patientId ? { patientId: note.patientId } : {}) });
  return link;
}
