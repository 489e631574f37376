import { timingSafeEqual } from 'node:crypto';
import { INTAKEQ_PARTNER_ID } from '../../shared/forms/form-constants.js';
import { HEALTH_GORILLA_PARTNER_ID } from '../../shared/labs/lab-schema.js';
import middy from '@middy/core';
import type { APIGatewayProxyResultV2 } from 'aws-lambda';
import {
  DELIVERY_HEADERS,
  DeliveryParams,
  EXTERNAL_NOTE_SOURCES,
  ExternalNoteBody,
  PARTNER_MESSAGES,
  PartnerResultBody,
  type ExternalNoteSource,
} from '../../shared/partners/partner-schema.js';
import type { Note } from '../../shared/notes/note-schema.js';
import { partnerSecretsFromEnv } from '../lib/adapters/partner-secrets.js';
import { writeAudit } from '../lib/audit/audit-repository.js';
import type { AuthContext } from '../lib/auth/auth-context.js';
import { ConflictError, NotFoundError, UnauthorizedError, ValidationError } from '../lib/errors.js';
import { greedyRouteResolver, httpErrorMapper, type HttpEvent } from '../lib/http/group-handler.js';
import { originOf, withRequestOrigin } from '../lib/http/request-context.js';
import { verifyDelivery } from '../lib/http/signed-delivery.js';
import { parseOrThrow } from '../lib/http/zod-errors.js';
import { getPartnerApp } from '../data/partners/partner-app-repository.js';
import { requirePatient } from '../core/notes/note-common.js';
import { externalNote, storedDelivery, writeDeliveredNote, writeDeliveryWithNoteVersion } from '../data/notes/delivery-records.js';
import { getNote } from '../data/notes/note-repository.js';
import { PARTNER_DELIVERY_ROUTES, type PartnerDeliveryRouteKey } from './routes.js';

/** The partner as the audit trail's actor: it has no user record or token. */
function partnerActor(practiceId: string, partnerId: string, name: string): AuthContext {
  return { practiceId, userId: `partner:${partnerId}`, email: '', name, role: 'employee', groups: [] };
}

export interface DeliveryOutcome {
  noteId: string;
  replayed: boolean;
}

/**
 * A partner app's result becomes its PARTNER note's data (status DELIVERED). The note must be a
 * PARTNER note opened for this partner app; the delivery item and the note's next version are one
 * transaction, so a replayed delivery (same deliveryId) is answered 200 and writes nothing.
 */
export async function applyPartnerResult(practiceId: string, partnerId: string, body: PartnerResultBody, now = new Date()): Promise<DeliveryOutcome> {
  const app = await getPartnerApp(practiceId, partnerId);
  if (!app) throw new NotFoundError(PARTNER_MESSAGES.unknownPartner);
  const prior = await storedDelivery(practiceId, partnerId, body.deliveryId);
  if (prior) return { noteId: String(prior.noteId), replayed: true };
  const note = await getNote(practiceId, body.noteId);
  if (!note || note.noteType !== 'PARTNER' || note.data.partnerAppId !== partnerId || note.status === 'DELETED')
    throw new NotFoundError(PARTNER_MESSAGES.wrongNote);
  const at = now.toISOString();
  const next: Note = {
    ...note,
    status: 'DELIVERED',
    data: { ...note.data, partnerAppId: partnerId, partnerName: app.name, result: body.result, deliveryId: body.deliveryId, deliveredAt: at },
    noteVersion: note.noteVersion + 1,
    timestamp: at,
  };
  const write = await writeDeliveryWithNoteVersion(practiceId, partnerId, body.deliveryId, next, note.noteVersion, at);
  if (!write.written) {
    // A concurrent copy of this delivery won; anything else changed the note under us: retry is safe.
    if (write.raced) return { noteId: String(write.raced.noteId), replayed: true };
    throw new ConflictError('The note changed while the result was written; send the delivery again.');
  }
  await writeAudit(partnerActor(practiceId, partnerId, app.name), {
    action: 'update',
    entity: 'NOTE',
    entityId: note.noteId,
    ...(note.patientId ? { patientId: note.patientId } : {}),
  });
  return { noteId: note.noteId, replayed: false };
}

const EXTERNAL_SOURCE_NAME: Record<ExternalNoteSource, string> = { veradigm: 'Veradigm', thea: 'Thea eConsult' };

/**
 * An outside system's note (RX_VERADIGM from Veradigm, ECONSULT_THEA from Thea) enters the chart
 * read-only; a replayed delivery returns the note it already made.
 */
export async function importExternalNote(practiceId: string, partnerId: string, body: ExternalNoteBody, now = new Date()): Promise<DeliveryOutcome> {
  if (!(partnerId in EXTERNAL_NOTE_SOURCES)) throw new NotFoundError(PARTNER_MESSAGES.unknownPartner);
  const source = partnerId as ExternalNoteSource;
  const noteType = EXTERNAL_NOTE_SOURCES[source];
  const prior = await storedDelivery(practiceId, partnerId, body.deliveryId);
  if (prior) return { noteId: String(prior.noteId), replayed: true };
  if (noteType === 'RX_VERADIGM' && (!body.prescription || body.econsult))
    throw new ValidationError('A Veradigm note carries one prescription.', { prescription: 'is required' });
  if (noteType === 'ECONSULT_THEA' && (!body.econsult || body.prescription))
    throw new ValidationError('A Thea note carries one eConsult.', { econsult: 'is required' });
  const patient = await requirePatient(practiceId, body.patientId);
  const at = now.toISOString();
  const name = EXTERNAL_SOURCE_NAME[source];
  const note = externalNote(
    {
      noteType,
      status: body.status,
      signed: body.status === 'SIGNED' ? at : null,
      eventTimestamp: new Date(body.eventTimestamp).toISOString(),
      patientId: patient.id,
      data: {
        source,
        ...(body.prescription ? { prescription: body.prescription } : {}),
        ...(body.econsult ? { econsult: body.econsult } : {}),
        deliveryId: body.deliveryId,
      },
      partnerId,
      authorName: name,
    },
    at,
  );
  const outcome = await writeDeliveredNote(practiceId, partnerId, body.deliveryId, note, at);
  if (outcome.replayed) return outcome;
  await writeAudit(partnerActor(practiceId, partnerId, name), { action: 'create', entity: 'NOTE', entityId: note.noteId, patientId: patient.id });
  return { noteId: note.noteId, replayed: false };
}

function header(event: HttpEvent, name: string): string | undefined {
  const headers = event.headers ?? {};
  const found = Object.keys(headers).find((k) => k.toLowerCase() === name);
  return found ? headers[found] : undefined;
}

function parseJson(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    throw new ValidationError('Malformed JSON in request body');
  }
}

/** The Subscription's `Authorization: Bearer <token>` header, compared in constant time; 401 otherwise. */
function verifyBearer(secret: string | null, authorization: string | undefined): void {
  const given = Buffer.from(authorization?.startsWith('Bearer ') ? authorization.slice(7) : '');
  const expected = Buffer.from(secret ?? '');
  if (!secret || given.length !== expected.length || !timingSafeEqual(given, expected)) throw new UnauthorizedError('Delivery not verified');
}

const json = (statusCode: number, body: unknown): APIGatewayProxyResultV2 => ({
  statusCode,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

/**
 * The signed routes' Lambda entry inside the notes group: no JWT (API Gateway registers them
 * without the authorizer), the partner's HMAC over the raw body instead, checked before parsing.
 */
export const deliveryHandler = middy<HttpEvent, APIGatewayProxyResultV2>()
  .use(httpErrorMapper())
  .use(greedyRouteResolver(PARTNER_DELIVERY_ROUTES))
  .handler(async (event) => {
    const practiceId = process.env.PRACTICE_ID;
    if (!practiceId) throw new Error('PRACTICE_ID is not set');
    const key = event.routeKey as PartnerDeliveryRouteKey;
    if (!PARTNER_DELIVERY_ROUTES.includes(key)) throw new NotFoundError(`No route for ${event.requestContext?.http?.method} ${event.rawPath}`);
    const params = parseOrThrow(DeliveryParams, event.pathParameters ?? {}, 'path');
    const raw = event.body ? (event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body) : '';
    const secrets = partnerSecretsFromEnv();
    const [current, previous] = await Promise.all([secrets.secretOf(params.partnerId), secrets.previousSecretOf(params.partnerId)]);
    // A rotation keeps both secrets valid: what the current one does not verify is tried with the one being retired.
    // Every verifier below refuses before it writes anything, so the second try never repeats a side effect.
    const verified = async <T>(run: (secret: string | null) => Promise<T>): Promise<T> => {
      try {
        return await run(current);
      } catch (error) {
        if (!previous || !(error instanceof UnauthorizedError) || error.message === PARTNER_MESSAGES.staleTimestamp) throw error;
        return run(previous);
      }
    };
    if (params.partnerId === HEALTH_GORILLA_PARTNER_ID && key === 'POST /v1/partner-deliveries/{partnerId}/results') {
      // Health Gorilla's Subscription notification: the FHIR resource itself, with the header the Subscription names (no HMAC),
      // so the report is read back from Health Gorilla by its id and that copy applied.
      await verified(async (secret) => verifyBearer(secret, header(event, 'authorization')));
      const { applyLabDelivery } = await import('./labs.js');
      const outcome = await applyLabDelivery(practiceId, parseJson(raw));
      // Health Gorilla takes only 200 or 202 as delivered and retries anything else.
      return json(200, outcome);
    }
    if (key === 'POST /v1/partner-deliveries/{partnerId}/intakes') {
      // IntakeQ's webhook: unsigned, so its URL's token is checked and the intake read back from IntakeQ.
      if (params.partnerId !== INTAKEQ_PARTNER_ID) throw new NotFoundError(PARTNER_MESSAGES.unknownPartner);
      const { applyIntakeSubmitted } = await import('./form-deliveries.js');
      const outcome = await verified((secret) => applyIntakeSubmitted(practiceId, secret, event.queryStringParameters?.token, parseJson(raw)));
      return json(outcome.replayed || outcome.ignored ? 200 : 201, outcome);
    }
    if (key === 'POST /v1/partner-deliveries/{partnerId}/faxes') {
      // Sinch signs no fax callback: its URL carries the practice's token. Sinch retries anything but 200.
      const bytes = event.body ? Buffer.from(event.body, event.isBase64Encoded ? 'base64' : 'utf8') : Buffer.alloc(0);
      const { handleFaxCallback } = await import('./fax-deliveries.js');
      return json(
        200,
        await verified((secret) =>
          handleFaxCallback(practiceId, params.partnerId, secret, event.queryStringParameters?.token, header(event, 'content-type') ?? '', bytes),
        ),
      );
    }
    // Twilio signs its own way (X-Twilio-Signature over the URL and form); the module checks it first.
    if (key === 'POST /v1/partner-deliveries/{partnerId}/calls') {
      const { handleCallEvent } = await import('./call-deliveries.js');
      return verified((secret) => handleCallEvent(practiceId, params.partnerId, secret, header(event, 'x-twilio-signature'), raw));
    }
    await verified(async (secret) => verifyDelivery(secret, header(event, DELIVERY_HEADERS.timestamp), header(event, DELIVERY_HEADERS.signature), raw));
    const parsed = parseJson(raw);
    const outcome =
      key === 'POST /v1/partner-deliveries/{partnerId}/results'
        ? await applyPartnerResult(practiceId, params.partnerId, parseOrThrow(PartnerResultBody, parsed, 'body'))
        : await importExternalNote(practiceId, params.partnerId, parseOrThrow(ExternalNoteBody, parsed, 'body'));
    return json(outcome.replayed ? 200 : 201, outcome);
  });

export const handleDelivery = (event: HttpEvent, context: Parameters<typeof deliveryHandler>[1]) =>
  withRequestOrigin(originOf(event), () => deliveryHandler(event, context));
