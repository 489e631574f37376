/*
 * A week of clinic life for the demo practice: this week's and next week's calendar, texts,
 * chart history, tasks, reminders, notifications, calls, faxes and drive files. Everything goes
 * through the local API as the demo users (and through the sandbox carrier, telephony and fax
 * stand-ins as the outside world), so each item passes the same validation, audit and side effects
 * a person's click would. Dates are relative to the day it runs, in the practice's time zone; the
 * runtime runs it once per data folder (state.json's demoWeekSeededAt).
 */
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { InitiateAuthCommand } from '@aws-sdk/client-cognito-identity-provider';
import { zonedParts, zonedToInstant } from '../../../shared/calendar/recurrence.js';
import { cognitoAdminClient } from '../cognito/provision-pool.js';
import { DEMO_PASSWORD } from './demo-users.js';
import { DEMO_PRACTICE_PHONE } from './seed-practice.js';
import { demoPdf, demoPhoto, demoPanorama, demoSpreadsheet, demoCcda } from './demo-files.js';

export interface DemoWeekContext {
  /** The API base the web uses (`${origin}/api`). */
  apiUrl: string;
  /** The runtime's own origin, where the carrier, telephony and fax stand-ins listen. */
  origin: string;
  cognitoEndpoint: string;
  region: string;
  userPoolClientId: string;
  /** The demo users' ids (Cognito subs) by email. */
  userIds: Record<string, string>;
  now?: Date;
  /** Ends the work left running after the seed returns (the scribe's recognition) when the runtime stops. */
  signal?: AbortSignal;
}

/** What the seed made, by kind, and what went wrong (empty when everything was taken). */
export interface DemoWeekResult {
  counts: Record<string, number>;
  errors: string[];
  /** Every seeded item's API path, so a test can open each one. */
  paths: string[];
  /** False while the scribe's recognition still runs after the seed returned. */
  complete?: boolean;
}

/**
 * What seedDemoWeek answers: the result so far and, when something still runs, a promise that adds
 * its counts, paths and errors to the same result once done. Speech recognition of the scribe's
 * recorded visit takes longer than the whole rest of the seed, so `npm start` does not wait for it.
 */
export interface DemoWeekSeeding {
  result: DemoWeekResult;
  later: Promise<void>;
}

export const PROVIDER = 'provider@demo.tidewell.local';
export const PA = 'pa@demo.tidewell.local';
export const EMPLOYEE = 'employee@demo.tidewell.local';
export const ADMIN = 'admin@demo.tidewell.local';

const TYPES = { follow: 'apt-demo-follow-up', newPatient: 'apt-demo-new-patient', tele: 'apt-demo-telehealth' } as const;
const DURATION: Record<string, number> = { [TYPES.follow]: 30, [TYPES.newPatient]: 60, [TYPES.tele]: 15 };
const LOCATIONS = ['loc-demo-main', 'loc-demo-north'] as const;

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

class SeedError extends Error {}

const pad = (n: number) => String(n).padStart(2, '0');
const patient = (n: number) => `pat-${String(n).padStart(4, '0')}`;

/** YYYY-MM-DD `offset` days from `day`. */
function addDays(day: string, offset: number): string {
  const d = new Date(`${day}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + offset);
  return d.toISOString().slice(0, 10);
}
const weekday = (day: string) => new Date(`${day}T12:00:00Z`).getUTCDay();

/** The day's visit slots, in the practice's time zone, with the appointment type each books. */
const SLOTS: readonly (readonly [time: string, type: string])[] = [
  ['09:00', TYPES.follow],
  ['10:00', TYPES.newPatient],
  ['11:15', TYPES.tele],
  ['14:00', TYPES.follow],
  ['15:30', TYPES.follow],
];

/**
 * Whether slot `s` is booked `d` days after this week's Monday (0-11, the weekend left out): every
 * provider day has one slot open, and Friday afternoons are Dr. Okafor's chart review.
 */
function slotBooked(d: number, s: number, pa: boolean): boolean {
  if (!pa && d % 7 === 4 && SLOTS[s][0] >= '15:00') return false;
  return (d + s + (pa ? 2 : 0)) % 5 !== 4;
}

/**
 * Dr. Okafor's visit times (HH:MM, practice time) on `today` (YYYY-MM-DD in the practice's zone) of
 * a week seeded that day: what a newcomer's dashboard lists. The weekly blood-pressure check is on
 * Tuesdays from this week's on; a weekend has none.
 */
export function providerVisitTimesOn(today: string): string[] {
  const d = (weekday(today) + 6) % 7;
  if (d >= 5) return [];
  const times = SLOTS.filter((_, s) => slotBooked(d, s, false)).map(([time]) => time);
  return d === 1 ? ['08:15', ...times] : times;
}

export async function seedDemoWeek(ctx: DemoWeekContext): Promise<DemoWeekSeeding> {
  const counts: Record<string, number> = {};
  const errors: string[] = [];
  const paths: string[] = [];
  const count = (kind: string, n = 1) => void (counts[kind] = (counts[kind] ?? 0) + n);
  const now = ctx.now ?? new Date();

  const tokens = new Map<string, string>();
  const cognito = cognitoAdminClient(ctx.cognitoEndpoint, ctx.region);
  async function token(email: string): Promise<string> {
    let t = tokens.get(email);
    if (!t) {
      const out = await cognito.send(
        new InitiateAuthCommand({
          AuthFlow: 'USER_PASSWORD_AUTH',
          ClientId: ctx.userPoolClientId,
          AuthParameters: { USERNAME: email, PASSWORD: DEMO_PASSWORD },
        }),
      );
      t = out.AuthenticationResult?.IdToken;
      if (!t) throw new SeedError(`No sign-in for ${email}`);
      tokens.set(email, t);
    }
    return t;
  }

  async function call(as: string, method: string, path: string, body?: unknown): Promise<Json> {
    const res = await fetch(`${ctx.apiUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${await token(as)}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new SeedError(`${method} ${path} answered ${res.status}: ${text.slice(0, 300)}`);
    return (text ? JSON.parse(text) : {}) as Json;
  }

  async function local(path: string, body: unknown): Promise<Json> {
    const res = await fetch(`${ctx.origin}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const text = await res.text();
    if (!res.ok) throw new SeedError(`POST ${path} answered ${res.status}: ${text.slice(0, 300)}`);
    try {
      return JSON.parse(text) as Json;
    } catch {
      return {};
    }
  }

  const parts: Promise<void>[] = [];
  /** One part of the demo; a failure is reported and the other parts still run. */
  async function part(name: string, fn: () => Promise<void>): Promise<void> {
    try {
      await fn();
    } catch (error) {
      errors.push(`${name}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  const settings = await call(ADMIN, 'GET', '/v1/practices/settings/calendar');
  const timeZone = String(settings.timeZone);
  const p = zonedParts(now, timeZone);
  const today = `${p.year}-${pad(p.month)}-${pad(p.day)}`;
  const monday = addDays(today, -((weekday(today) + 6) % 7));
  const at = (day: string, hhmm: string) => {
    const [y, m, d] = day.split('-').map(Number);
    const [hour, minute] = hhmm.split(':').map(Number);
    return zonedToInstant({ year: y, month: m, day: d, hour, minute }, timeZone).toISOString();
  };
  const daysAgo = (n: number, hhmm = '10:00') => at(addDays(today, -n), hhmm);
  const providerId = ctx.userIds[PROVIDER];
  const paId = ctx.userIds[PA];
  const employeeId = ctx.userIds[EMPLOYEE];

  const phones = new Map<string, string>();
  async function phoneOf(patientId: string): Promise<string> {
    let phone = phones.get(patientId);
    if (!phone) {
      phone = String((await call(EMPLOYEE, 'GET', `/v1/patients/${patientId}`)).primaryPhoneNumber);
      phones.set(patientId, phone);
    }
    return phone;
  }

  // 1. The calendar: hours, blocked time, a day off, reminder texts, two weeks of visits.
  const dayOff = addDays(monday, 9); // next Wednesday
  parts.push(
    part('calendar', async () => {
      const workingHours = [1, 2, 3, 4, 5].map((w) => ({ weekday: w, start: '08:00', end: '17:00' }));
      const lunch = [1, 2, 3, 4, 5].map((w) => ({ weekday: w, start: '12:00', end: '13:00', label: 'Lunch' }));
      await call(PROVIDER, 'PUT', `/v1/calendar-settings/users/${providerId}`, {
        defaultView: 'week',
        workingHours,
        blockedTimes: [...lunch, { weekday: 5, start: '15:00', end: '17:00', label: 'Chart review' }],
        daysOff: [],
      });
      await call(PA, 'PUT', `/v1/calendar-settings/users/${paId}`, {
        defaultView: 'week',
        workingHours,
        blockedTimes: lunch,
        daysOff: [{ from: dayOff, to: dayOff, label: 'CME conference' }],
      });
      count('blocked times', 7);
      count('days off');
      await call(ADMIN, 'PUT', '/v1/practices/settings/calendar', { timeZone, reminderLeadHours: 12 });

      const slots = SLOTS;
      let n = 0;
      const bookings: (() => Promise<void>)[] = [];
      const todays: { who: string; time: string; appointmentId: string }[] = [];
      for (let d = 0; d < 12; d++) {
        if (d === 5 || d === 6) continue; // the weekend
        const day = addDays(monday, d);
        for (const [who, id] of [
          [PROVIDER, providerId],
          [PA, paId],
        ] as const) {
          if (id === paId && day === dayOff) continue;
          for (let s = 0; s < slots.length; s++) {
            const [time, type] = slots[s];
            if (!slotBooked(d, s, id === paId)) continue;
            n++;
            const tele = type === TYPES.tele;
            const patientId = patient(((n * 7) % 37) + 1);
            bookings.push(() =>
              call(who, 'POST', '/v1/appointments', {
                patientId,
                appointmentTypeId: type,
                providerId: id,
                bookingLocationId: tele ? null : LOCATIONS[(d + s) % 2],
                visitType: tele ? 'virtual' : 'in_person',
                start: at(day, time),
                durationMinutes: DURATION[type],
                notes: tele ? 'Video visit link sent by text.' : '',
              }).then((created) => {
                const appointmentId = String(created.appointmentId ?? created.appointment?.appointmentId);
                paths.push(`/v1/appointments/${appointmentId}`);
                if (day === today) todays.push({ who, time, appointmentId });
                count('appointments');
              }),
            );
          }
        }
      }
      // One at a time: a booking re-checks the provider's day, and two at once conflict as two people would.
      for (const book of bookings) await book();
      // Today's clinic is under way: the front desk has marked who came (none at a weekend).
      for (const [who, statuses] of [
        [PROVIDER, ['seen', 'in_room', 'arrived']],
        [PA, ['no_show', 'seen', 'arrived']],
      ] as const) {
        const mine = todays.filter((t) => t.who === who).sort((a, b) => a.time.localeCompare(b.time));
        for (let i = 0; i < Math.min(mine.length, statuses.length); i++) {
          await call(EMPLOYEE, 'PUT', `/v1/appointments/${mine[i].appointmentId}/arrival`, { occurrenceDay: today, status: statuses[i] });
          count('arrival statuses');
        }
      }

      // A weekly blood-pressure check for Mr. Whitaker: one occurrence moved, one cancelled.
      const seriesDay = addDays(monday, 1);
      const series = await call(PROVIDER, 'POST', '/v1/appointments', {
        patientId: patient(2),
        appointmentTypeId: TYPES.follow,
        providerId,
        bookingLocationId: LOCATIONS[0],
        visitType: 'in_person',
        start: at(seriesDay, '08:15'),
        durationMinutes: 30,
        recurrence: { frequency: 'Weekly', interval: 1, end: 'COUNT', count: 8 },
        notes: 'Weekly blood pressure check while titrating lisinopril.',
      });
      const seriesId = String(series.appointmentId ?? series.appointment?.appointmentId);
      paths.push(`/v1/appointments/${seriesId}`);
      count('recurring series');
      const moved = addDays(seriesDay, 7);
      const got = await call(PROVIDER, 'GET', `/v1/appointments/${seriesId}`);
      await call(PROVIDER, 'PUT', `/v1/appointments/${seriesId}?occurrence=${moved}`, {
        patientId: patient(2),
        appointmentTypeId: TYPES.follow,
        providerId,
        bookingLocationId: LOCATIONS[1],
        visitType: 'in_person',
        start: at(addDays(moved, 1), '16:00'),
        durationMinutes: 30,
        notes: 'Moved to Thursday at the North clinic at the patient’s request.',
        updatedAt: got.updatedAt ?? got.appointment?.updatedAt,
      });
      count('moved occurrences');
      await call(PROVIDER, 'DELETE', `/v1/appointments/${seriesId}?occurrence=${addDays(seriesDay, 14)}`);
      count('cancelled occurrences');
    }),
  );

  // 2. Communication.
  const conversations: { patientId: string; lines: [dir: 'in' | 'out', text: string][]; read?: boolean }[] = [
    {
      patientId: patient(1),
      lines: [
        ['out', 'Hi Maria, your lab results are in and look good. Dr. Okafor will go over them Thursday.'],
        ['in', 'Thank you! Can I still take my vitamin D before the visit?'],
      ],
    },
    {
      patientId: patient(3),
      lines: [
        ['in', 'Hi, this is Aisha. My throat is really sore since yesterday, do I need to come in?'],
        ['out', 'Sorry to hear that, Aisha. We have an 11:15 telehealth slot today, does that work?'],
        ['in', 'Yes please!'],
      ],
    },
    {
      patientId: patient(4),
      lines: [
        ['out', 'Reminder: fasting labs tomorrow at 8 am, water only after midnight.'],
        ['in', 'Got it, thanks'],
      ],
      read: true,
    },
    { patientId: patient(10), lines: [['in', 'Is my prescription ready for pickup at the office?']] },
    {
      patientId: patient(12),
      lines: [
        ['out', 'Your referral to physical therapy was faxed this morning.'],
        ['in', 'Great, they called me already.'],
      ],
      read: true,
    },
    {
      patientId: patient(13),
      lines: [
        ['in', 'Could I move my appointment next week to the afternoon?'],
        ['out', 'Sure, Imani. Tuesday at 2 pm works?'],
        ['in', 'Perfect'],
      ],
    },
    { patientId: patient(16), lines: [['out', 'Welcome to Tidewell Demo Clinic, Benjamin! Reply here any time with questions.']], read: true },
    { patientId: patient(19), lines: [['in', 'The new inhaler makes me jittery. Is that normal?']] },
    {
      patientId: patient(21),
      lines: [
        ['out', 'Hi Ava, your flu shot is due. Want to book a nurse visit?'],
        ['in', 'Yes, Friday morning if possible'],
      ],
      read: true,
    },
    {
      patientId: patient(24),
      lines: [
        ['in', 'Blood sugar this morning was 182 fasting. Should I worry?'],
        ['out', 'Thanks for checking, Michael. Let’s talk at your visit Thursday; keep logging the readings.'],
      ],
      read: true,
    },
    { patientId: patient(28), lines: [['out', 'Your membership renews on the 1st. No action needed.']], read: true },
  ];
  parts.push(
    part('conversations', async () => {
      for (const c of conversations) {
        const phone = await phoneOf(c.patientId);
        const opened = await call(PROVIDER, 'POST', '/v1/messaging/conversations', { patientPhoneNumber: phone, practicePhoneNumber: DEMO_PRACTICE_PHONE });
        const id = String(opened.conversation.conversationId);
        for (const [dir, text] of c.lines) {
          if (dir === 'out') await call(c.patientId === patient(3) ? EMPLOYEE : PROVIDER, 'POST', `/v1/messaging/conversations/${id}/messages`, { text });
          else await local('/local/carrier/sms', { from: phone, to: DEMO_PRACTICE_PHONE, text });
        }
        if (c.read) await call(PROVIDER, 'PUT', `/v1/messaging/conversations/${id}/mark-as-read`);
        paths.push(`/v1/messaging/conversations/${id}`);
        count('conversations');
        count('texts', c.lines.length);
      }

      // A picture the practice sent: the rash-care handout photo.
      const phone = await phoneOf(patient(6));
      const opened = await call(PROVIDER, 'POST', '/v1/messaging/conversations', { patientPhoneNumber: phone, practicePhoneNumber: DEMO_PRACTICE_PHONE });
      const id = String(opened.conversation.conversationId);
      const photo = demoPhoto();
      const key = await upload(PROVIDER, `sms/demo/rash-care.png`, 'image/png', photo);
      await call(PROVIDER, 'POST', `/v1/messaging/conversations/${id}/messages`, {
        text: 'Here is the photo of the rash-care steps we talked about.',
        files: [{ key, name: 'rash-care.png', contentType: 'image/png', size: photo.length }],
      });
      await local('/local/carrier/sms', { from: phone, to: DEMO_PRACTICE_PHONE, text: 'Got the picture, thanks!' });
      paths.push(`/v1/messaging/conversations/${id}`);
      count('conversations');
      count('texts', 2);
      count('pictures');

      // A patient who opted out.
      const stop = await phoneOf(patient(27));
      const s = await call(PROVIDER, 'POST', '/v1/messaging/conversations', { patientPhoneNumber: stop, practicePhoneNumber: DEMO_PRACTICE_PHONE });
      await call(PROVIDER, 'POST', `/v1/messaging/conversations/${s.conversation.conversationId}/messages`, {
        text: 'Hi Mia, this is Tidewell Demo Clinic checking in after your visit.',
      });
      await local('/local/carrier/sms', { from: stop, to: DEMO_PRACTICE_PHONE, text: 'STOP' });
      paths.push(`/v1/messaging/conversations/${s.conversation.conversationId}`);
      count('conversations');
      count('opted-out phones');
    }),
  );

  parts.push(
    part('contact conversation', async () => {
      const contact = await call(EMPLOYEE, 'POST', '/v2/practices/contacts', {
        name: 'Rivera Cardiology',
        lastName: '',
        phoneNumber: '+15125550177',
        faxNumber: '+15125550178',
        email: 'referrals@rivera-cardiology.example.com',
        groups: ['Specialists'],
      });
      count('contacts');
      paths.push(`/v2/practices/contacts?phoneNumber=${encodeURIComponent('+15125550177')}`);
      void contact;
      const c = await call(EMPLOYEE, 'POST', '/v1/messaging/conversations', { patientPhoneNumber: '+15125550177', practicePhoneNumber: DEMO_PRACTICE_PHONE });
      await call(EMPLOYEE, 'POST', `/v1/messaging/conversations/${c.conversation.conversationId}/messages`, {
        text: 'Hello, this is Tidewell Demo Clinic. Did you receive our referral for James Whitaker?',
      });
      await local('/local/carrier/sms', { from: '+15125550177', to: DEMO_PRACTICE_PHONE, text: 'Yes, he is booked with Dr. Rivera on the 14th.' });
      paths.push(`/v1/messaging/conversations/${c.conversation.conversationId}`);
      count('conversations');
    }),
  );

  parts.push(
    part('scheduled texts', async () => {
      for (const [n, offset, text] of [
        [1, 1, 'Good morning Maria! A reminder to bring your glucose log to Thursday’s visit.'],
        [24, 3, 'Hi Michael, time for your 3-day blood sugar check-in. Reply with this morning’s reading.'],
      ] as const) {
        const phone = await phoneOf(patient(n));
        const created = await call(PROVIDER, 'POST', '/v1/scheduled-events', {
          when: at(addDays(today, offset), '09:30'),
          eventType: 'createScheduledNote',
          service: 'notes',
          operationId: 'createNote',
          operationVersion: 'v2',
          invocations: 1,
          request: { noteType: 'SMS', patientId: patient(n), data: { from: DEMO_PRACTICE_PHONE, to: phone, text } },
        });
        const eventId = created.eventId ?? created.event?.eventId ?? created.id;
        if (eventId) paths.push(`/v1/scheduled-events/${eventId}`);
        count('scheduled texts');
      }
    }),
  );

  parts.push(
    part('ePHI waiver', async () => {
      // pat-0006 (Carlos Garcia) has not accepted the HIPAA authorization: a waiver request goes to his email.
      await call(PROVIDER, 'POST', `/v1/patients/${patient(6)}/patient_documents/request_acceptance`, {});
      count('unsigned ePHI waivers');
    }),
  );

  // 3. Charts.
  const text = (t: string) => ({
    text: t
      .replace(/<[^>]+>/g, ' ')
      .replace(/\s+/g, ' ')
      .trim(),
    formattedText: t.startsWith('<') ? t : `<p>${t}</p>`,
  });
  async function note(as: string, body: Json, sign = true): Promise<Json> {
    const created = await call(as, 'POST', '/v2/notes', { noteId: 'new', ...body });
    paths.push(`/v1/notes/${created.noteId}`);
    count(`notes ${String(body.noteType)}`);
    if (!sign) return created;
    return call(as, 'POST', `/v1/notes/${created.noteId}/sign`, { noteVersion: created.noteVersion });
  }

  const CHARTS: [n: number, sections: [path: string, body: Json][]][] = [
    [
      2,
      [
        ['diagnoses', { name: 'Essential hypertension', code: 'I10', pinned: 1 }],
        ['diagnoses', { name: 'Hyperlipidemia, unspecified', code: 'E78.5' }],
        ['allergies', { name: 'Penicillin', severity: 'moderate', reaction: 'Hives' }],
        ['medications', { productName: 'Lisinopril 20 mg tablet', status: 'Active' }],
        ['medications', { productName: 'Atorvastatin 40 mg tablet', status: 'Active' }],
        ['surgeries', { name: 'Right knee arthroscopy', date: '06/12/2009' }],
        ['family-history', { diagnosis: 'Coronary artery disease', family: ['FTH'] }],
        ['social-history', { question: 'Tobacco use', answer: 'Former smoker, quit 1998' }],
        ['general', { name: 'Prefers morning appointments', details: 'Drives himself' }],
        ['vaccines', { name: 'Influenza, seasonal', date: addDays(today, -40) }],
        ['freeform-medications', { name: 'Fish oil 1000 mg daily' }],
      ],
    ],
    [
      1,
      [
        ['diagnoses', { name: 'Type 2 diabetes mellitus without complications', code: 'E11.9', pinned: 1 }],
        ['diagnoses', { name: 'Vitamin D deficiency', code: 'E55.9' }],
        ['allergies', { name: 'Sulfa drugs', severity: 'mild', reaction: 'Rash' }],
        ['medications', { productName: 'Metformin 500 mg tablet', status: 'Active' }],
        ['surgeries', { name: 'Cesarean section', date: '04/02/2014' }],
        ['family-history', { diagnosis: 'Type 2 diabetes', family: ['MTH'] }],
        ['social-history', { question: 'Exercise', answer: 'Walks 3 times a week' }],
        ['general', { name: 'Spanish-speaking family at home', details: 'Patient speaks English' }],
        ['vaccines', { name: 'Tdap', date: addDays(today, -400) }],
        ['freeform-medications', { name: 'Vitamin D3 2000 IU daily' }],
      ],
    ],
    [
      24,
      [
        ['diagnoses', { name: 'Type 2 diabetes mellitus with hyperglycemia', code: 'E11.65', pinned: 1 }],
        ['diagnoses', { name: 'Chronic kidney disease, stage 2', code: 'N18.2' }],
        ['allergies', { name: 'No known drug allergies' }],
        ['medications', { productName: 'Metformin 1000 mg tablet', status: 'Active' }],
        ['medications', { productName: 'Empagliflozin 10 mg tablet', status: 'Active' }],
        ['surgeries', { name: 'Appendectomy', date: '08/15/1975' }],
        ['family-history', { diagnosis: 'Stroke', family: ['FTH'] }],
        ['social-history', { question: 'Alcohol use', answer: 'Two drinks a week' }],
        ['general', { name: 'Retired engineer' }],
        ['vaccines', { name: 'Pneumococcal conjugate (PCV20)', date: addDays(today, -200) }],
        ['freeform-medications', { name: 'Glucose test strips' }],
      ],
    ],
    [
      3,
      [
        ['diagnoses', { name: 'Asthma, mild intermittent', code: 'J45.20' }],
        ['allergies', { name: 'Cat dander', severity: 'mild', reaction: 'Sneezing' }],
        ['medications', { productName: 'Albuterol HFA 90 mcg inhaler', status: 'Active' }],
        ['social-history', { question: 'Tobacco use', answer: 'Never' }],
      ],
    ],
  ];
  // The visit note's template reads the chart, so the chart is filled first.
  const chartSections = part('chart sections', async () => {
    for (const [n, sections] of CHARTS) {
      for (const [path, body] of sections) {
        await call(PROVIDER, 'POST', `/v1/patients/${patient(n)}/${path}`, path === 'freeform-medications' ? body : { pinned: 0, ...body });
        count('chart items');
      }
      paths.push(`/v1/patients/${patient(n)}`);
    }
  });
  parts.push(chartSections);

  parts.push(
    chartSections.then(() =>
      part('notes', async () => {
        // A visit note from the SOAP template.
        const expansion = await call(PROVIDER, 'POST', '/v1/templates/tpl-demo-soap/expand', { patientId: patient(2), timeZone });
        const soap = String(expansion.formattedText ?? expansion.body ?? expansion.html ?? '')
          .replace('presenting with ***', 'presenting for a blood pressure follow-up; home readings 135-145/85-90')
          .replace('Exam: ***', 'Exam: regular rate and rhythm, no edema')
          .replace('<h3>Assessment</h3><p>***</p>', '<h3>Assessment</h3><p>Essential hypertension, not at goal</p>')
          .replace('<h3>Plan</h3><p>***</p>', '<h3>Plan</h3><p>Increase lisinopril to 20 mg daily; weekly BP checks; BMP in two weeks</p>')
          .replaceAll('***', '');
        const visit = await note(PROVIDER, { noteType: 'NOTE', patientId: patient(2), eventTimestamp: daysAgo(7), data: text(soap) });
        // The signed visit note goes to the cardiologist by fax, through the fax stand-in as through Sinch.
        await call(EMPLOYEE, 'POST', '/v1/faxes', {
          patientId: patient(2),
          noteId: visit.noteId,
          to: '+15125550178',
          recipientName: 'Rivera Cardiology',
          coverText: 'Visit note for James Whitaker ahead of his cardiology appointment.',
        });
        paths.push('/v1/faxes?direction=OUTBOUND');
        count('faxes outbound');

        await note(PROVIDER, {
          noteType: 'PHONE_CALL',
          patientId: patient(1),
          eventTimestamp: daysAgo(3, '16:20'),
          data: text('Called Maria about fasting glucose of 142. Discussed diet and metformin adherence; recheck A1c in 3 months.'),
        });
        // An email is written, then sent rather than signed.
        await note(
          EMPLOYEE,
          {
            noteType: 'EMAIL',
            patientId: patient(24),
            eventTimestamp: daysAgo(5, '11:00'),
            data: {
              subject: 'Your visit summary',
              ...text('Hi Michael, attached is the summary of your visit. Keep logging your morning sugars and bring the log next time.'),
            },
          },
          false,
        );
        await note(
          EMPLOYEE,
          {
            noteType: 'SMS_LOG',
            patientId: patient(13),
            eventTimestamp: daysAgo(2, '09:05'),
            data: text('Patient texted asking to move her appointment; rescheduled to Tuesday 2 pm.'),
          },
          false,
        );
        for (const [n, days, weight, height, systolic, diastolic, pulse] of [
          [2, 7, 212, 70, 148, 92, 78],
          [2, 0, 209, 70, 136, 86, 74],
          [24, 5, 188, 68, 128, 80, 70],
          [1, 3, 171, 64, 118, 76, 68],
        ] as const) {
          await note(PROVIDER, {
            noteType: 'VITALS',
            patientId: patient(n),
            eventTimestamp: daysAgo(days, '09:10'),
            data: { weight, height, systolic, diastolic, pulse, temperature: 98.4, respirationRate: 14, oxygenSaturation: 98 },
          });
        }
        await note(EMPLOYEE, {
          noteType: 'SALES',
          patientId: patient(3),
          eventTimestamp: daysAgo(1, '15:00'),
          status: 'DRAFT',
          data: {
            items: [
              { kind: 'charge', refId: 'chg-office-visit-99213', quantity: 1 },
              { kind: 'charge', refId: 'chg-strep-87880', quantity: 1 },
              { kind: 'inventory', refId: 'inv-amoxicillin-500', quantity: 20 },
            ],
          },
        });

        // An addended note.
        const signed = await note(PROVIDER, {
          noteType: 'NOTE',
          patientId: patient(24),
          eventTimestamp: daysAgo(5, '10:30'),
          data: text('Diabetes follow-up. A1c 8.1%, up from 7.6%. Started empagliflozin 10 mg daily. Recheck in 3 months.'),
        });
        await call(PROVIDER, 'POST', `/v1/notes/${signed.noteId}/addend`, {
          noteVersion: signed.noteVersion,
          ...text('Addendum: eGFR 68 reviewed, no dose change needed.'),
        });
        count('addenda');

        // A draft assigned to a colleague, and the provider's own draft.
        const draft = await note(
          PA,
          { noteType: 'NOTE', patientId: patient(3), data: text('Sore throat for 2 days, no cough, tender anterior nodes. Rapid strep pending.') },
          false,
        );
        await call(PA, 'POST', `/v1/notes/${draft.noteId}/assign`, { userId: providerId });
        count('drafts assigned');
        await note(
          PROVIDER,
          { noteType: 'NOTE', patientId: patient(13), data: text('Annual physical in progress: review of systems negative so far.') },
          false,
        );
      }),
    ),
  );

  // Michael Chen's diabetes labs: three draws, each ordered from the lab stand-in and its results sent
  // back through the practice's results endpoint, so the chart's trend and the review list show them.
  const labsDone = part('labs', async () => {
    const BMP = ['2345-7', '3094-0', '2160-0', '2951-2', '2823-3', '2075-0', '2028-9', '17861-6'];
    const draws: [days: number, a1c: number, bmp: number[]][] = [
      [186, 7.2, [148, 15, 0.98, 139, 4.4, 101, 25, 9.5]],
      [96, 7.6, [161, 17, 1.04, 138, 4.8, 102, 24, 9.4]],
      [6, 8.1, [182, 19, 1.12, 137, 5.3, 101, 24, 9.6]],
    ];
    for (const [days, a1c, bmp] of draws) {
      const collected = daysAgo(days, '08:10');
      const issued = daysAgo(days - 1, '07:30');
      const created = await call(PROVIDER, 'POST', '/v2/notes', {
        noteId: 'new',
        noteType: 'LAB',
        status: 'DRAFT',
        patientId: patient(24),
        eventTimestamp: collected,
        data: { text: 'Diabetes monitoring: A1c and basic metabolic panel.' },
      });
      const ordered = await call(PROVIDER, 'POST', `/v1/notes/${created.noteId}/lab-order`, { noteVersion: created.noteVersion, tests: ['4548-4', '51990-0'] });
      const values = Object.fromEntries([['4548-4', a1c], ...BMP.map((code, i) => [code, bmp[i]])]);
      const sent = await local(`/local/health-gorilla/sandbox/RequestGroup/${String(ordered.data.hgId)}/results`, { values, issued, collected });
      if (!(sent.statuses as number[]).every((s) => s < 300))
        throw new SeedError(`lab results for ${String(created.noteId)} answered ${JSON.stringify(sent.statuses)}`);
      paths.push(`/v1/notes/${created.noteId}`, `/v1/notes/labs/reviews/${created.noteId}`);
      count('lab orders');
      count('lab draws');
      // The earlier draws were reviewed at the time; the latest waits on Dr. Okafor's list.
      if (days > 30) {
        const review = await call(PROVIDER, 'GET', `/v1/notes/labs/reviews/${created.noteId}`);
        await call(PROVIDER, 'POST', `/v1/notes/labs/reviews/${created.noteId}`, {
          version: review.version,
          comment: days > 100 ? 'A1c above goal; reinforce diet and metformin.' : 'A1c rising; discuss adding a second agent.',
        });
        count('lab results reviewed');
      }
    }
    paths.push(`/v2/notes/labs/link/${patient(24)}/4548-4`);
  });
  parts.push(labsDone);

  parts.push(
    chartSections.then(() =>
      part('prescriptions', async () => {
        // Aisha's strep throat: amoxicillin dispensed from the clinic's stock, which signing takes from inventory.
        const [y, m] = today.split('-').map(Number);
        const lotExpiry = new Date(Date.UTC(y, m - 1 + 8, 1));
        const rx = {
          inventoryId: 'inv-amoxicillin-500',
          providerId,
          quantityPrescribed: 20,
          daysOfTreatment: 10,
          numberOfRefills: 0,
          instructions: 'Take one capsule by mouth',
          frequency: 'Twice a day',
          lotNumber: 'AMX2417',
          lotExpiration: `${pad(lotExpiry.getUTCMonth() + 1)}/${lotExpiry.getUTCFullYear()}`,
        };
        const created = await call(PROVIDER, 'POST', '/v2/notes', {
          noteId: 'new',
          noteType: 'RX',
          patientId: patient(3),
          status: 'DRAFT',
          eventTimestamp: daysAgo(1, '11:40'),
          data: {},
        });
        await call(PROVIDER, 'POST', `/v1/notes/${created.noteId}/sign`, { noteVersion: created.noteVersion, data: rx });
        paths.push(`/v1/notes/${created.noteId}`, '/v2/inventories/inv-amoxicillin-500');
        count('notes RX');

        // Mr. Whitaker's lisinopril, written in DoseSpot's window and brought back by the sync.
        const sso = await call(PROVIDER, 'GET', `/v2/practices/sso/dosespot?patientId=${patient(2)}`);
        const ssoUrl = new URL(String(sso.ssoUrl));
        const page = await (await fetch(new URL(`${ssoUrl.pathname}${ssoUrl.search}`, ctx.origin))).text();
        const session = /name="session" value="([^"]+)"/.exec(page)?.[1];
        if (!session) throw new SeedError('DoseSpot opened no prescribing session');
        const written = await fetch(`${ctx.origin}/local/dosespot/prescriptions`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({
            session,
            drug: 'Lisinopril 20 mg tablet',
            quantity: '90',
            refills: '1',
            directions: 'Take one tablet by mouth once daily',
          }).toString(),
        });
        await written.text();
        if (!written.ok) throw new SeedError(`DoseSpot's window answered ${written.status}`);
        const synced = await call(PROVIDER, 'POST', `/v1/practices/users/me/dosespot-sync?patientId=${patient(2)}`);
        count('notes RX_DOSESPOT', Number(synced.created ?? 0));
        paths.push(`/v2/notes?patientId=${patient(2)}&noteTypes=RX_DOSESPOT`);
      }),
    ),
  );

  // Dr. Okafor preps Michael Chen's visit with Copilot, answered by the model the runtime has (the
  // local assistant under `npm start`, which reads the chart the seed filled, labs included).
  const copilotReady = process.env.TIDEWELL_AI_BASE_URL ? Promise.all([chartSections, labsDone]) : null;
  if (copilotReady)
    parts.push(
      copilotReady.then(() =>
        part('copilot', async () => {
          const conversationId = randomUUID();
          const messages: { role: 'user' | 'assistant'; content: string }[] = [];
          for (const question of ['What changed for Michael Chen since his last visit?', 'Which medications is he on, and any allergies?']) {
            messages.push({ role: 'user', content: question });
            const reply = await call(PROVIDER, 'POST', '/v1/ai/conversation', {
              conversationId,
              entryPointPath: `/patients/${patient(24)}`,
              patientId: patient(24),
              messages,
            });
            messages.push({ role: 'assistant', content: String(reply.content) });
          }
          paths.push(`/v1/ai/conversations/${conversationId}/messages`);
          count('copilot conversations');
        }),
      ),
    );

  // Dr. Okafor records a short visit with James Whitaker and the AI scribe writes the draft note from
  // it, through the same upload, state machine and worker (pocketsphinx, the rule-based formatter)
  // as a recording in the browser. The recording starts here; its recognition finishes after the
  // seed returns (see DemoWeekSeeding), then one proposal is accepted into the chart and one rejected.
  let scribeLater: Promise<void> = Promise.resolve();
  parts.push(
    part('AI scribe', async () => {
      const patientId = patient(2);
      const draft = await call(PROVIDER, 'POST', '/v2/notes', { noteId: 'new', noteType: 'NOTE', patientId });
      const noteId = String(draft.noteId);
      count('notes NOTE');
      const audio = await readFile(new URL('./fixtures/scribe-visit.webm', import.meta.url));
      const contentType = 'audio/webm';
      const presign = await call(PROVIDER, 'POST', '/v1/transcriptions/uploads', {
        patientId,
        noteId,
        fileName: 'Whitaker visit.webm',
        contentType,
        size: audio.length,
      });
      const put = await fetch(String(presign.signedUrl), { method: 'PUT', headers: { 'content-type': contentType, origin: ctx.origin }, body: audio });
      if (!put.ok) throw new SeedError(`the recording's upload answered ${put.status}`);
      const started = await call(PROVIDER, 'POST', '/v1/transcriptions', { filesPath: presign.filesPath, fileKey: presign.key, patientId, noteId });
      const transcriptionId = String(started.transcriptionId);
      scribeLater = part('AI scribe', async () => {
        let status = String(started.status);
        for (const deadline = Date.now() + 10 * 60_000; !['completed', 'failed', 'cancelled'].includes(status);) {
          if (ctx.signal?.aborted) throw new SeedError('stopped before the recording was transcribed');
          if (Date.now() > deadline) throw new SeedError(`the transcription is still ${status} after ten minutes`);
          await new Promise((done) => setTimeout(done, 500));
          status = String((await call(PROVIDER, 'GET', `/v1/transcriptions/${transcriptionId}`)).status);
        }
        if (status !== 'completed') throw new SeedError(`the transcription ended ${status}`);
        const result = await call(PROVIDER, 'GET', `/v1/transcriptions/${transcriptionId}/result`);
        const proposals = (result.proposals ?? []) as { proposalId: string; kind: string }[];
        const decide = async (kind: string, decision: 'accept' | 'reject') => {
          const proposal = proposals.find((x) => x.kind === kind);
          if (!proposal) throw new SeedError(`the scribe proposed no ${kind}`);
          await call(PROVIDER, 'POST', `/v1/transcriptions/${transcriptionId}/proposals/${proposal.proposalId}`, { decision });
          count(decision === 'accept' ? 'scribe proposals accepted' : 'scribe proposals rejected');
        };
        // The ibuprofen goes onto the medication list; the blood pressure was already charted by hand.
        await decide('medication-start', 'accept');
        await decide('vitals', 'reject');
        paths.push(`/v1/transcriptions/${transcriptionId}`, `/v1/transcriptions/${transcriptionId}/result`, `/v1/transcriptions/${transcriptionId}/recording`);
        count('scribe notes');
      });
      paths.push(`/v1/notes/${noteId}`);
    }),
  );

  // 4. Tasks, reminders, notifications, templates.
  parts.push(
    part('tasks', async () => {
      const tasks: [string, Json, boolean?][] = [
        ['Call Maria Lopez about her A1c result', { dueOn: addDays(today, -2), urgent: true, patientId: patient(1), assigned: employeeId }],
        ['Fax records request to Rivera Cardiology', { dueOn: addDays(today, -1), patientId: patient(2), assigned: employeeId }],
        ['Review Michael Chen’s glucose log', { dueOn: today, patientId: patient(24), assigned: providerId }],
        ['Order flu vaccine stock for next month', { dueOn: today, assigned: ADMIN in ctx.userIds ? ctx.userIds[ADMIN] : employeeId }],
        ['Prior authorization for empagliflozin', { dueOn: addDays(today, 3), patientId: patient(24), assigned: employeeId }],
        ['Send welcome packet to Benjamin Tran', { dueOn: addDays(today, -4), patientId: patient(16), assigned: employeeId }, true],
        ['Confirm PT referral was received', { dueOn: addDays(today, -3), patientId: patient(12), assigned: employeeId }, true],
      ];
      for (const [t, body, done] of tasks) {
        const created = await call(PROVIDER, 'POST', '/v1/tasks', { text: t, ...body });
        const ident = String(created.ident);
        paths.push(`/v1/tasks/${ident}`);
        if (done) {
          await call(PROVIDER, 'PUT', `/v1/tasks/${ident}`, { status: 'COMPLETED', lastUpdated: created.lastUpdated });
          count('tasks completed');
        } else count('tasks open');
      }
    }),
  );

  parts.push(
    part('reminders', async () => {
      const end = new Date(at(addDays(today, 1), '00:00')).getTime();
      const base = Math.max(now.getTime() + 30 * 60_000, Math.min(new Date(at(today, '16:00')).getTime(), end - 60 * 60_000));
      for (const [i, [t, as, pid]] of (
        [
          ['Check Maria Lopez’s fasting glucose log', PROVIDER, patient(1)],
          ['Renew the CLIA waiver certificate', ADMIN, null],
          ['Call James Whitaker about his home BP readings', PROVIDER, patient(2)],
        ] as const
      ).entries()) {
        const created = await call(as, 'POST', '/v1/reminders', {
          text: t,
          dueAt: new Date(base + i * 10 * 60_000).toISOString(),
          ...(pid ? { patientId: pid } : {}),
        });
        if (created.reminderId) paths.push(`/v1/reminders?reminderId=${created.reminderId}`);
        count('reminders');
      }
    }),
  );

  parts.push(
    part('notifications', async () => {
      const list: Json[] = [
        { notificationType: 'TASK', text: 'New task: Call Maria Lopez about her A1c result', patientId: patient(1) },
        { notificationType: 'PHONE_CALL', text: 'Missed call from James Whitaker', patientId: patient(2) },
        { notificationType: 'SMS', data: { from: await phoneOf(patient(19)), to: DEMO_PRACTICE_PHONE, timestamp: now.toISOString() } },
        { notificationType: 'LAB_RESULTS', text: 'Lipid panel results for Michael Chen', patientId: patient(24) },
        { notificationType: 'DRAFT', text: 'Draft note for Aisha Rahman', patientId: patient(3) },
        { notificationType: 'FORM', text: 'Intake form submitted by Zoe Patel', patientId: patient(25) },
        { notificationType: 'FAX', text: 'Referral fax received from Rivera Cardiology' },
      ];
      for (const body of list) {
        await call(PROVIDER, 'POST', '/v1/notifications', body);
        count('notifications');
      }
    }),
  );

  parts.push(
    part('templates', async () => {
      for (const body of [
        {
          templateName: 'Follow-up visit',
          shortcut: 'followup',
          body: '<h3>Follow-up - {{date}}</h3><p>{{preferred name}} returns for follow-up of ***.</p><p>Since the last visit: ***</p><p>Vitals: {{vitals}}</p><p>Current medications: {{current meds}}</p><p>Plan: ***</p><p>{{signature}}</p>',
        },
        {
          templateName: 'After-visit summary',
          shortcut: 'avs',
          body: '<h3>Your visit on {{date}}</h3><p>Dear {{preferred name}},</p><p>Today we talked about: ***</p><p>Your medications: {{current meds}}</p><p>Next steps: ***</p><p>Call or text us at any time with questions.</p><p>{{signature}}</p>',
        },
      ]) {
        const created = await call(ADMIN, 'POST', '/v1/practices/templates', body);
        if (created.templateId) paths.push(`/v1/practices/templates/${created.templateId}`);
        count('templates');
      }
    }),
  );

  // 5. Calls, faxes, drive files.
  parts.push(
    part('calls', async () => {
      await local('/local/telephony/inbound', { from: await phoneOf(patient(2)), voicemail: false });
      count('missed calls');
      await local('/local/telephony/inbound', { from: await phoneOf(patient(19)), voicemail: true });
      count('voicemails');
    }),
  );

  parts.push(
    part('faxes', async () => {
      const pdf = await demoPdf('Referral from Rivera Cardiology', [
        'Patient: James Whitaker, DOB 07/19/1951',
        'Echocardiogram: EF 55%, mild LVH.',
        'Recommend continuing ACE inhibitor.',
      ]);
      const filed = await local('/local/fax/inbound', { from: '+15125550178', pdfBase64: Buffer.from(pdf).toString('base64') });
      count('faxes inbound');
      const pending = await local('/local/fax/inbound', {
        from: '+17135550166',
        pdfBase64: Buffer.from(await demoPdf('Lab requisition', ['Patient name illegible', 'Please call to confirm.'])).toString('base64'),
      });
      count('faxes inbound');
      void filed;
      void pending;
    }),
  );

  parts.push(
    part('drive files', async () => {
      await call(ADMIN, 'POST', '/v1/s3/folders', { path: 'public/', name: 'Practice documents' });
      const files: [string, string, Uint8Array][] = [
        [
          'public/Practice documents/Membership price list.pdf',
          'application/pdf',
          await demoPdf('Tidewell Demo Clinic - Membership', [
            'Adult: $75 per month',
            'Child with an adult member: $25 per month',
            'Includes unlimited visits, texting and at-cost labs.',
          ]),
        ],
        ['public/Practice documents/Inventory count.csv', 'text/csv', demoSpreadsheet()],
        ['public/Practice documents/Front desk.png', 'image/png', demoPhoto()],
        ['public/Practice documents/Whitaker summary.xml', 'application/xml', new TextEncoder().encode(demoCcda(today))],
        ['public/Practice documents/Waiting room panorama.png', 'image/png', demoPanorama()],
      ];
      for (const [key, type, bytes] of files) {
        await upload(ADMIN, key, type, bytes);
        count('drive files');
      }
      paths.push(`/v1/s3/files?prefix=${encodeURIComponent('public/Practice documents/')}`);
    }),
  );

  await Promise.all(parts);

  async function upload(as: string, key: string, contentType: string, bytes: Uint8Array): Promise<string> {
    const presign = await call(as, 'POST', '/v1/s3/files', { key, contentType, size: bytes.length });
    const put = await fetch(String(presign.signedUrl), {
      method: 'PUT',
      headers: { 'content-type': contentType, origin: ctx.origin },
      body: Buffer.from(bytes),
    });
    if (!put.ok) throw new SeedError(`upload of ${key} answered ${put.status}`);
    return String(presign.key);
  }

  return { result: { counts, errors, paths }, later: scribeLater };
}
