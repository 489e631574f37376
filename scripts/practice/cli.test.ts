import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadPracticeConfig } from '../../infra/config/practice-config.js';
import { HELP, runCli } from './cli.js';
import { fakeContext, HARBOR, practiceRoot } from './test-support.js';

describe('practice new', () => {
  it('writes a practice file the synth loads, first admin included', async () => {
    const root = practiceRoot();
    const ctx = fakeContext(root);
    const code = await runCli(
      [
        'new',
        'harbor',
        '--name',
        'Harbor Family Medicine',
        '--account',
        '111122223333',
        '--alarm-email',
        'ops@harbor.example',
        '--alarm-email',
        'oncall@harbor.example',
        '--admin-email',
        'ada@harbor.example',
        '--admin-first-name',
        'Ada',
        '--admin-last-name',
        'Lee',
      ],
      ctx,
    );
    expect(code).toBe(0);
    expect(ctx.lines).toEqual(['Wrote practices/harbor.json. Next: npm run practice -- deploy harbor --dry-run']);
    const config = loadPracticeConfig('harbor', root);
    expect(config).toMatchObject({
      slug: 'harbor',
      practiceId: 'prc_harbor',
      practiceName: 'Harbor Family Medicine',
      region: 'us-east-1',
      account: '111122223333',
      alarms: { emails: ['ops@harbor.example', 'oncall@harbor.example'] },
      retainData: true,
      firstAdmin: { email: 'ada@harbor.example', firstName: 'Ada', lastName: 'Lee' },
    });
  });

  it('refuses to overwrite an existing practice file', async () => {
    const root = practiceRoot(HARBOR);
    const file = join(root, 'practices', 'harbor.json');
    const before = readFileSync(file, 'utf8');
    const ctx = fakeContext(root);
    expect(await runCli(['new', 'harbor', '--name', 'Another'], ctx)).toBe(1);
    expect(ctx.errors).toEqual(['practices/harbor.json already exists; it was left as it is. Edit it, or choose another slug.']);
    expect(readFileSync(file, 'utf8')).toBe(before);
  });

  it('writes nothing when the schema refuses a value, and says which', async () => {
    const root = practiceRoot();
    const ctx = fakeContext(root);
    expect(await runCli(['new', 'harbor', '--name', 'Harbor', '--alarm-email', 'ops at harbor'], ctx)).toBe(1);
    expect(ctx.errors).toEqual([
      'practices/harbor.json is not a valid practice config:\n  alarms.emails.0: alarms.emails must be email addresses\nNothing was written.',
    ]);
    expect(existsSync(join(root, 'practices', 'harbor.json'))).toBe(false);
  });

  it('asks on a terminal for what the flags leave out', async () => {
    const root = practiceRoot();
    const answers: Record<string, string> = {
      'Practice name (as staff and patients see it): ': 'Cove Clinic',
      'Practice id (never changes after launch) [prc_cove_bay]: ': '',
      'AWS region [us-east-1]: ': 'us-west-2',
      'AWS account id (blank: the one your credentials use): ': '',
      'Alarm email addresses, comma separated (blank: none): ': 'a@cove.example, b@cove.example',
      'First admin email (blank: add one later): ': 'cy@cove.example',
      'First admin first name: ': 'Cy',
      'First admin last name: ': 'Young',
    };
    const asked: string[] = [];
    const ctx = fakeContext(root, {
      prompt: async (q) => {
        asked.push(q);
        return answers[q] ?? 'unexpected';
      },
    });
    expect(await runCli(['new', 'cove-bay'], ctx)).toBe(0);
    expect(asked).toEqual(Object.keys(answers));
    expect(loadPracticeConfig('cove-bay', root)).toMatchObject({
      practiceId: 'prc_cove_bay',
      practiceName: 'Cove Clinic',
      region: 'us-west-2',
      alarms: { emails: ['a@cove.example', 'b@cove.example'] },
      firstAdmin: { email: 'cy@cove.example', firstName: 'Cy', lastName: 'Young' },
    });
  });

  it('without a terminal, a missing name or half a first admin is a usage error; --dry-run prints the file', async () => {
    const root = practiceRoot();
    const ctx = fakeContext(root);
    expect(await runCli(['new', 'harbor'], ctx)).toBe(2);
    expect(await runCli(['new', 'harbor', '--name', 'H', '--admin-email', 'a@h.example'], ctx)).toBe(2);
    expect(await runCli(['new', 'Harbor!', '--name', 'H'], ctx)).toBe(2);
    expect(ctx.errors).toEqual([
      'Give the practice name: --name "Harbor Family Medicine".',
      'The first admin needs --admin-first-name and --admin-last-name too.',
      '"Harbor!" cannot be a practice slug: use 2 to 40 lower-case letters, digits and dashes (harbor-fm).',
    ]);
    expect(await runCli(['new', 'harbor', '--name', 'Harbor', '--dry-run'], ctx)).toBe(0);
    expect(ctx.lines[0]).toBe('Would write practices/harbor.json (dry run, nothing written):');
    expect(JSON.parse(ctx.lines.slice(1).join('\n'))).toEqual({
      slug: 'harbor',
      practiceId: 'prc_harbor',
      practiceName: 'Harbor',
      region: 'us-east-1',
      webDomain: null,
      retainData: true,
      mfa: 'admins',
    });
    expect(existsSync(join(root, 'practices', 'harbor.json'))).toBe(false);
  });
});

describe('practice command line', () => {
  it('prints help with exit 0 when asked, and with exit 2 when no command is given', async () => {
    const ctx = fakeContext(practiceRoot());
    expect(await runCli(['--help'], ctx)).toBe(0);
    expect(await runCli([], ctx)).toBe(2);
    expect(await runCli(['status', '--help'], ctx)).toBe(0);
    expect(ctx.lines).toEqual([HELP.main, HELP.main, HELP.status]);
  });

  it('names an unknown command or flag and where to look', async () => {
    const ctx = fakeContext(practiceRoot(HARBOR));
    expect(await runCli(['destroy', 'harbor'], ctx)).toBe(2);
    expect(await runCli(['status', 'harbor', '--drift-timeout'], ctx)).toBe(2);
    expect(await runCli(['status', 'harbor', 'cove'], ctx)).toBe(2);
    expect(ctx.errors).toEqual([
      'There is no command "destroy". Commands: new, deploy, backfill, admin, status, audit-verify, import. See: npm run practice -- --help',
      '--drift-timeout needs a value. See: npm run practice -- status --help',
      'status takes one practice (or --all), not 2: harbor cove.',
    ]);
  });

  it('stops on an invalid practice file with the field and rule, exit 1', async () => {
    const root = practiceRoot(HARBOR);
    writeFileSync(
      join(root, 'practices', 'harbor.json'),
      JSON.stringify({ ...HARBOR, firstAdmin: { email: 'ada@harbor.example', firstName: '', lastName: 'Lee' } }),
    );
    const ctx = fakeContext(root);
    expect(await runCli(['admin', 'harbor', '--email', 'b@harbor.example', '--first-name', 'B', '--last-name', 'C'], ctx)).toBe(1);
    expect(ctx.errors).toEqual(['practices/harbor.json is not a valid practice config:\n  firstAdmin.firstName: firstAdmin.firstName is required']);
  });
});
