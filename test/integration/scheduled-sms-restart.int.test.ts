import { afterAll, describe, expect, it } from 'vitest';
import type { LocalRuntime } from '../../infra/local/runtime.js';
import { eventually, untilTime } from '../support/eventually.js';
import { callApi as api, restartableRuntime, signInAs as signIn } from '../support/restartable-runtime.js';

/**
 * A scheduled text that falls due while the runtime is stopped goes out once when it starts again
 * (the schedule, the event and the carrier's record live in the data folder); a cancelled one never
 * does. This file runs its own runtime so it can stop and start it.
 */
const runtime = restartableRuntime('tidewell-sms-restart-');
afterAll(() => runtime.dispose());
const start = () => runtime.start();

const outbound = async (rt: LocalRuntime) =>
  ((await (await fetch(`${rt.outputs.webUrl}/local/carrier/sms`)).json()) as { messages: { to: string; text: string }[] }).messages;

describe('a scheduled text that falls due while the runtime is stopped', () => {
  it('goes out exactly once after the next start, and a cancelled one never does', async () => {
    let rt = await start();
    const provider = await signIn(rt, 'provider@demo.tidewell.local');
    const phone = '+19715550142';
    const p = await api(rt, provider, 'POST', '/v1/patients', {
      firstName: 'Rita',
      lastName: 'Restart',
      gender: 'female',
      dob: '1960-06-06',
      phones: [{ type: 'mobile', number: phone }],
    });
    const when = new Date(Date.now() + 4_000).toISOString();
    const schedule = (text: string) =>
      api(rt, provider, 'POST', '/v1/scheduled-events', {
        when,
        request: { noteType: 'SMS', patientId: p.body.id, data: { from: '+15415550100', to: phone, text } },
      });
    const kept = await schedule('Your flu shot is due');
    const cancelled = await schedule('This one was cancelled');
    expect([kept.status, cancelled.status]).toEqual([201, 201]);
    expect((await api(rt, provider, 'DELETE', `/v1/scheduled-events/${cancelled.body.eventId}`)).status).toBe(200);

    await runtime.stop();
    expect(Date.now()).toBeLessThan(Date.parse(when));
    // The subject is the clock: the due time passes with nothing running.
    await untilTime(Date.parse(when) + 1);

    rt = await start();
    const again = await signIn(rt, 'provider@demo.tidewell.local');
    const eventOf = async (eventId: string) =>
      (await api(rt, again, 'GET', `/v1/scheduled-events?eventId=${eventId}&status=active,processing,completed,failed,deleted`)).body.events[0];
    await eventually(
      'the kept event completed after the start',
      () => eventOf(kept.body.eventId),
      (e) => e.status === 'completed',
      { within: 20_000 },
    );
    expect(await eventOf(kept.body.eventId)).toMatchObject({ status: 'completed', noteId: expect.any(String) });
    // Its one-time schedule is deleted once the delivery returned, so nothing can send it again.
    const scheduleUrl = `${rt.endpoints.scheduler}/schedules/scheduled-sms.${kept.body.eventId}?groupName=${rt.endpoints.schedulerGroup}`;
    await eventually(
      "the kept event's schedule gone after it fired",
      async () => (await fetch(scheduleUrl)).status,
      (status) => status === 404,
    );
    const sent = (await outbound(rt)).filter((m) => m.to === phone);
    expect(sent.map((m) => m.text)).toEqual(['Your flu shot is due']);
    expect(await eventOf(cancelled.body.eventId)).toMatchObject({ status: 'deleted', noteId: null });
  });
});
