/**
 * The page-key backfill `practice deploy` runs, against the embedded table engine: two practices'
 * tables backfilled side by side, each from a practice whose appointment and contact were written
 * before their page keys existed, and the reads that wait for the markers then reading by page.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  listAppointmentsOverlapping,
  listPatientAppointmentsFrom,
  PATIENT_KEYS_MARKER,
  PROVIDER_KEYS_MARKER,
} from '../../functions/data/calendar/calendar-repository.js';
import { CONTACT_NUMBERS_MARKER, contactKey, contactsByNumbers, listContactPage } from '../../functions/data/contacts/contact-repository.js';
import { documentClientOn } from '../../functions/lib/table/client.js';
import { createTableInput } from '../../functions/lib/table/definition.js';
import { withTable, type TableScope } from '../../functions/lib/table/scope.js';
import { startLocalDynamo, type LocalDynamo } from '../../infra/local/dynamodb/local-dynamodb.js';
import { NO_RECURRENCE } from '../../shared/calendar/recurrence.js';
import { backfillPractice } from './backfill.js';
import type { AwsClients } from './context.js';

const TABLES = { prc_harbor: 'Tidewell-harbor-table', prc_cove: 'Tidewell-cove-table' } as const;
type PracticeId = keyof typeof TABLES;

let dynamo: LocalDynamo;
let dataDir: string;
let base: DynamoDBClient;
let savedTableName: string | undefined;
/** The Query inputs the reads sent, by table. */
const queries: QueryCommandInput[] = [];

let reader: DynamoDBClient;

/** The reads go through a client of their own that records each Query (a document client shares its base's middleware). */
const scope = (practiceId: PracticeId): TableScope => ({ tableName: TABLES[practiceId], client: documentClientOn(reader) });

const PROVIDER = 'usr_provider';
function oldStyleItems(practiceId: PracticeId) {
  const appointment = {
    appointmentId: `apt_${practiceId}`,
    patientId: 'pat_1',
    appointmentTypeId: 'typ_1',
    providerId: PROVIDER,
    bookingLocationId: null,
    visitType: 'in_person',
    start: '2026-12-10T15:00:00.000Z',
    durationMinutes: 30,
    recurrence: { ...NO_RECURRENCE },
    notes: '',
    excludedDays: [],
    detachedFrom: null,
    arrivals: {},
    createdBy: 'usr_admin',
    createdAt: '2025-01-01T00:00:00.000Z',
    updatedAt: '2025-01-01T00:00:00.000Z',
  };
  const contact = {
    contactId: `con_${practiceId}`,
    name: `Pharmacy of ${practiceId}`,
    lastName: null,
    phoneNumber: '+14585550177',
    faxNumber: null,
    email: null,
    groups: [],
    createdAt: '2025-01-01T00:00:00.000Z',
    updatedAt: '2025-01-01T00:00:00.000Z',
  };
  // As an older version wrote them: no provider copy (conflictSk), no name item, no number lookup, no marker.
  return [
    { ...appointment, practiceId, sk: `APPOINTMENT#${appointment.appointmentId}`, entityType: 'APPOINTMENT', seriesEnd: '2026-12-10T15:30:00.000Z' },
    { ...contact, practiceId, sk: contactKey(contact.contactId), entityType: 'CONTACT' },
  ];
}

const reads = (practiceId: PracticeId) =>
  withTable(scope(practiceId), async () => ({
    overlapping: await listAppointmentsOverlapping(practiceId, '2026-12-10T00:00:00.000Z', '2026-12-11T00:00:00.000Z', PROVIDER),
    nextVisits: await listPatientAppointmentsFrom(practiceId, 'pat_1', '2026-12-10T00:00:00.000Z', '2027-12-10T00:00:00.000Z'),
    page: await listContactPage(practiceId, { limit: 50 }),
    byNumber: await contactsByNumbers(practiceId, ['+14585550177']),
  }));
const prefixesRead = () =>
  queries.map((q) => String(q.ExpressionAttributeValues?.[':prefix'] ?? q.ExpressionAttributeValues?.[':low'] ?? '').replace(/#.*$/, '#'));
const marker = async (table: string, practiceId: string, sk: string) =>
  (await documentClientOn(base).send(new GetCommand({ TableName: table, Key: { practiceId, sk } }))).Item;

beforeAll(async () => {
  // The module-level table is left unset: a backfill that fell back to it would throw, not write elsewhere.
  savedTableName = process.env.TABLE_NAME;
  delete process.env.TABLE_NAME;
  dataDir = mkdtempSync(join(tmpdir(), 'tidewell-backfill-'));
  dynamo = await startLocalDynamo({ dataDir, tableName: TABLES.prc_harbor, ttlSweepIntervalMs: 3_600_000, onError: () => undefined });
  base = new DynamoDBClient({ endpoint: dynamo.endpoint, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  reader = new DynamoDBClient({ endpoint: dynamo.endpoint, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  reader.middlewareStack.add(
    (next, context) => async (args) => {
      if (context.commandName === 'QueryCommand') queries.push(args.input as QueryCommandInput);
      return next(args);
    },
    { step: 'initialize', name: 'recordQueries' },
  );
  await base.send(new CreateTableCommand(createTableInput(TABLES.prc_cove)));
  for (const practiceId of Object.keys(TABLES) as PracticeId[]) {
    for (const Item of oldStyleItems(practiceId)) await documentClientOn(base).send(new PutCommand({ TableName: TABLES[practiceId], Item }));
  }
});

afterAll(async () => {
  if (savedTableName !== undefined) process.env.TABLE_NAME = savedTableName;
  base.destroy();
  reader.destroy();
  await dynamo.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the page keys a deploy backfills', () => {
  it("reads whole partitions before the backfill, by page after it, in each practice's own table", async () => {
    queries.length = 0;
    const before = await reads('prc_harbor');
    expect(before.overlapping.map((a) => a.appointmentId)).toEqual(['apt_prc_harbor']);
    expect(before.page.contacts.map((c) => c.contactId)).toEqual(['con_prc_harbor']);
    // Without the markers: every appointment series, and the whole contact book for the page and the number.
    expect(prefixesRead()).toEqual(['APPOINTMENT#', '', 'CONTACT#', 'CONTACT#']);

    const aws = { dynamodb: base } as AwsClients;
    const [harbor, cove] = await Promise.all([backfillPractice(aws, TABLES.prc_harbor, 'prc_harbor'), backfillPractice(aws, TABLES.prc_cove, 'prc_cove')]);
    expect(harbor).toContain('1 appointments');
    expect(harbor).toContain("1 patients' appointments");
    expect(harbor).toContain("1 contacts' numbers");
    expect(cove).toContain("1 contacts' numbers");

    for (const [practiceId, table] of Object.entries(TABLES)) {
      const other = Object.entries(TABLES).find(([p]) => p !== practiceId)![1];
      expect(await marker(table, practiceId, PROVIDER_KEYS_MARKER)).toMatchObject({ written: 1 });
      expect(await marker(table, practiceId, PATIENT_KEYS_MARKER)).toMatchObject({ written: 1 });
      expect(await marker(table, practiceId, CONTACT_NUMBERS_MARKER)).toMatchObject({ indexed: true, names: true });
      expect(await marker(other, practiceId, CONTACT_NUMBERS_MARKER)).toBeUndefined();
    }

    for (const practiceId of Object.keys(TABLES) as PracticeId[]) {
      queries.length = 0;
      const after = await reads(practiceId);
      expect(after.overlapping.map((a) => a.appointmentId)).toEqual([`apt_${practiceId}`]);
      expect(after.nextVisits.map((a) => a.appointmentId)).toEqual([`apt_${practiceId}`]);
      expect(after.page.contacts.map((c) => c.contactId)).toEqual([`con_${practiceId}`]);
      expect(after.byNumber.get('+14585550177')?.map((c) => c.contactId)).toEqual([`con_${practiceId}`]);
      // With them: the provider's and the patient's copies by start and series end, the name items, the number's lookups.
      expect(prefixesRead()).toEqual(['APPTSTART#', 'APPTSERIES#', 'APPTPATIENT#', 'APPTPATIENT#', 'CONTACT_NAME#', 'CONTACT_NUMBER#']);
      expect(queries.every((q) => q.TableName === TABLES[practiceId])).toBe(true);
    }

    // Marked done: a second deploy writes nothing.
    expect(await backfillPractice(aws, TABLES.prc_harbor, 'prc_harbor')).toBe('no item lacked its keys; every marker is written');
  });
});
