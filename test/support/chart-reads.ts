import { expect } from 'vitest';
import { api } from './local-stack.js';

type Res = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Awaits an API answer, fails the test with the body when its status is not the expected one, and gives the body. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function expectStatus(res: Promise<{ status: number; body: any }>, status = 200) {
  const r = await res;
  expect(r.status, JSON.stringify(r.body).slice(0, 2000)).toBe(status);
  return r.body;
}

/** The items of one chart section, as the chart's section list shows them. */
export const sectionItems = async (token: string, patientId: string, section: string) =>
  (await expectStatus(api(token, 'GET', `/v1/patients/${patientId}/${section}`))).items as Res[];

/** The patient's notes of one type, as the chart's notes list shows them. */
export const patientNotes = async (token: string, patientId: string, noteType: string) =>
  (await expectStatus(api(token, 'GET', `/v1/notes?patientId=${patientId}&noteType=${noteType}`))).notes as Res[];
