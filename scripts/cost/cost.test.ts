import { describe, expect, it } from 'vitest';
import { estimate, formatEstimate } from './estimate.js';
import { cronIntervalDays, recoveryPoints, templateFacts, type CfnTemplate } from './fixed.js';
import { PRICES } from './prices.js';
import { synthesizePractice } from './synth.js';
import { monthlyRequests, requestsFromLoadRun, ROUTE_KINDS, SCALES, type Scale } from './workload.js';

/** A practice with nothing stored and nobody signed in: only what the requests given add. */
const EMPTY: Scale = {
  name: 'probe',
  description: 'probe',
  patients: 0,
  notes: 0,
  conversations: 0,
  texts: 0,
  appointmentsPerYear: 0,
  staff: 0,
  years: 1,
  auditEntries: 0,
  filesGb: 0,
};

const PROBE: CfnTemplate = {
  Resources: {
    KeyA: { Type: 'AWS::KMS::Key', Properties: { EnableKeyRotation: true } },
    KeyB: { Type: 'AWS::KMS::Key' },
    Secret: { Type: 'AWS::SecretsManager::Secret' },
    Errors: {
      Type: 'AWS::CloudWatch::Alarm',
      Properties: {
        Metrics: [
          { Id: 'sum', Expression: 'a + b + c' },
          { Id: 'a', MetricStat: {} },
          { Id: 'b', MetricStat: {} },
          { Id: 'c', MetricStat: {} },
        ],
      },
    },
    Notes: { Type: 'AWS::Lambda::Function', Properties: { Description: 'Tidewell notes endpoints (probe)', MemorySize: 1024, Architectures: ['arm64'] } },
    Role: { Type: 'AWS::IAM::Role' },
  },
};

describe('the monthly cost of a practice', () => {
  it('prices a known template and a million draft saves at a known figure', () => {
    const result = estimate({ facts: templateFacts([PROBE]), scale: EMPTY, requests: { draftSave: 1_000_000 }, smsNumbers: 0 });
    // Standing: two keys at $1, one secret at $0.40, an alarm over three metrics at $0.10 each.
    const standing = 2 + 0.4 + 0.3;
    // A draft save: 45 ms at 1024 MB arm64, one read unit, 30 write units (15 of them the indexes'), 0.5 KB answered; one
    // CORS preflight per note, whose six minutes of writing send 72 saves to its URL.
    const gbSeconds = 1_000_000 * 0.045 * 1;
    const preflights = 1_000_000 / 72;
    expect(result.lines.find((l) => l.item.startsWith('notes (1024 MB)'))).toMatchObject({ quantity: gbSeconds, monthly: expect.closeTo(0.600003, 6) });
    const usage =
      0.2 + // Lambda requests
      gbSeconds * 0.0000133334 +
      1.0 + // HTTP API requests
      preflights / 1_000_000 + // their preflights, billed as requests
      0.125 + // 1,000,000 read units
      30 * 0.625 + // 30,000,000 write units
      ((1_000_000 * (0.6 + 0.45) + preflights * 0.45) / 1024 ** 2) * 0.5 + // logs ingested
      (3_000 / 10_000) * 0.03 + // KMS requests of an idle month
      ((1_000_000 * 0.5) / 1024 ** 2) * 0.09; // API responses to the internet
    expect(result.total).toBeCloseTo(standing + usage, 6);
    expect(result.lines.find((l) => l.item.startsWith('CORS preflights'))?.quantity).toBeCloseTo(preflights, 6);
    expect(result.total).toBeCloseTo(23.9444, 3);
  });

  it('counts the recovery points the backup plan keeps, warm and cold, for a practice of its age', () => {
    expect(cronIntervalDays('cron(0 5 * * ? *)')).toBe(1);
    expect(cronIntervalDays('cron(0 5 ? * SAT *)')).toBe(7);
    expect(cronIntervalDays('cron(0 5 1 * ? *)')).toBe(30);
    const monthly = { name: 'Monthly7Year', intervalDays: 30, keepDays: 2_555, coldAfterDays: 90 };
    expect(recoveryPoints(monthly, 3_650)).toEqual({ warm: 3, cold: 83 });
    expect(recoveryPoints(monthly, 365)).toEqual({ warm: 3, cold: 10 });
    expect(recoveryPoints({ name: 'Daily', intervalDays: 1, keepDays: 35 }, 3_650)).toEqual({ warm: 35, cold: 0 });
  });

  it('models the badges polling all day: three polls a minute per signed-in staff member at the large scale', () => {
    // Unread notifications and reminders every 60 s, tasks every 30 s: 240 an hour, ten hours, 22 days, 50 staff.
    expect(monthlyRequests(SCALES.large).unreadPoll).toBe(50 * 22 * 2_400);
    expect(Object.values(monthlyRequests(SCALES.demo)).reduce((s, n) => s + n, 0)).toBe(730);
  });

  it("counts the browser's CORS preflights: one per chart opened, one an hour per badge for a whole day of polling", () => {
    // Every kind served by the probe's one function: only the requests' own counts matter here.
    const profiles = Object.fromEntries(Object.entries(ROUTE_KINDS).map(([kind, profile]) => [kind, { ...profile, fn: 'notes' }]));
    const preflightsOf = (requests: Record<string, number>) =>
      estimate({ facts: templateFacts([PROBE]), scale: EMPTY, requests, profiles, smsNumbers: 0 }).lines.find((l) => l.item.startsWith('CORS preflights'))
        ?.quantity;
    expect(preflightsOf({ chartRead: 1_000 })).toBe(1_000);
    // A ten-hour day of one tab's badges: 2,400 polls of three URLs, each preflighted once an hour.
    expect(preflightsOf({ unreadPoll: 2_400 })).toBeCloseTo(30, 9);
    // A scheduled job never comes from a browser.
    expect(preflightsOf({ scheduledJob: 1_000 })).toBe(0);
  });

  it("scales a load run's counted requests and units to a month of the workday for the scale's staff", () => {
    const { requests, profiles } = requestsFromLoadRun({ minutes: 10, users: 5, requests: { draftSave: 600 }, writeUnits: { draftSave: 1_800 } }, SCALES.large);
    // 600 saves in 10 minutes by 5 users: 60 runs in a 10-hour day, 22 days, 50 staff for 5 users.
    expect(requests.draftSave).toBe(600 * 60 * 22 * 10);
    expect(profiles.draftSave.wru).toBe(3);
    expect(requests.smsReceipt).toBe(monthlyRequests(SCALES.large).smsReceipt);
    expect(() => requestsFromLoadRun({ minutes: 10, users: 5, requests: { coffee: 1 } }, SCALES.large)).toThrow(/unknown route kind coffee/);
  });

  it('refuses a template holding a resource type it has no price rule for', () => {
    const template: CfnTemplate = { Resources: { Db: { Type: 'AWS::RDS::DBInstance' } } };
    expect(() => estimate({ facts: templateFacts([template]), scale: EMPTY, requests: {}, smsNumbers: 0 })).toThrow(/No price rule for AWS::RDS::DBInstance/);
  });

  it("prints every resource type of the demo practice's two stacks, the total and the dated prices it used", () => {
    const { stacks } = synthesizePractice('demo');
    const facts = templateFacts(Object.values(stacks));
    const printed = formatEstimate(estimate({ facts, scale: SCALES.large, requests: monthlyRequests(SCALES.large), smsNumbers: 0 }), 'probe');
    expect(facts.types.size).toBeGreaterThan(20);
    for (const type of facts.types.keys()) expect(printed, type).toContain(`${type} ×`);
    expect(facts.kmsKeys).toBeGreaterThan(0);
    expect(printed).toMatch(new RegExp(`AWS::KMS::Key × ${facts.kmsKeys} +${facts.kmsKeys}\\.0 +\\$${facts.kmsKeys}\\.00`));
    expect(printed).toMatch(/Total per month +\$[\d,]+/);
    expect(printed).toContain(`as of 2026-`);
    expect(printed).toContain(PRICES.dynamoWrite.source);
  }, 180_000);
});
