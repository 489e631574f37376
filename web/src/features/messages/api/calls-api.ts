import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { CallList, CallNumbers, PhoneCall, type CallStatus } from '../../../../../shared/calls/call-schema.js';
import { SignedFileUrl } from '../../../../../shared/files/file-responses.js';
import { NoContent } from '../../../../../shared/http/no-content.js';
import { apiRequest } from '../../../lib/api-client.js';
import { callCountKey } from '../../../lib/phone-calls.js';

export interface CallListParams {
  query?: string;
  caller?: string;
  recipient?: string;
  fromDate?: string;
  toDate?: string;
}

export const callKeys = {
  all: ['phone-calls'] as const,
  list: (p: CallListParams) => ['phone-calls', 'list', p] as const,
  numbers: ['phone-calls', 'numbers'] as const,
  count: callCountKey,
};

/** Stretches of the calls one search reads at most (each a bounded server read); a narrower search finds older calls. */
const SEARCH_STRETCHES = 10;

export function useCallList(params: CallListParams) {
  return useQuery({
    queryKey: callKeys.list(params),
    queryFn: async ({ signal }) => {
      try {
        const query = {
          query: params.query || undefined,
          caller: params.caller || undefined,
          recipient: params.recipient || undefined,
          fromDate: params.fromDate || undefined,
          toDate: params.toDate || undefined,
        };
        let list = await apiRequest({ path: '/v1/phone-calls', query, signal }, CallList);
        // A search answers the matches of one stretch of calls: look on until a page is found.
        for (let n = 1; list.nextToken && list.calls.length < list.limit && n < SEARCH_STRETCHES; n++) {
          const more = await apiRequest({ path: '/v1/phone-calls', query: { ...query, nextToken: list.nextToken }, signal }, CallList);
          const calls = [...list.calls, ...more.calls].slice(0, list.limit);
          list = { ...more, calls, total: list.total + more.total };
        }
        return list;
      } catch (error) {
        // Spec §8: a failed call list is logged only; the screen keeps what it had.
        console.error('Failed to fetch phone calls', error instanceof Error ? error.message : error);
        throw error;
      }
    },
    placeholderData: keepPreviousData,
    refetchInterval: 5_000,
  });
}

export function useCallNumbers() {
  return useQuery({
    queryKey: callKeys.numbers,
    queryFn: async ({ signal }) => await apiRequest({ path: '/v1/phone-calls/phone-call-numbers', signal }, CallNumbers),
  });
}

export const callsApi = {
  place: async (body: { to: string; from?: string; patientId?: string | null; patientName?: string; dialFrom?: string }) =>
    await apiRequest({ method: 'POST', path: '/v1/notes/call', body }, PhoneCall),
  update: async (call: PhoneCall, changes: { status?: CallStatus; assigned?: string | null }) =>
    await apiRequest(
      {
        method: 'PUT',
        path: `/v1/phone-calls/${encodeURIComponent(call.ident)}`,
        body: { status: changes.status ?? call.status, assigned: changes.assigned !== undefined ? changes.assigned : call.assigned, patientId: call.patientId },
      },
      PhoneCall,
    ),
  assign: async (ident: string, userId: string) =>
    await apiRequest({ method: 'POST', path: `/v1/phone-calls/${encodeURIComponent(ident)}/assign/${encodeURIComponent(userId)}` }, PhoneCall),
  remove: async (ident: string) => apiRequest({ method: 'DELETE', path: `/v1/phone-calls/${encodeURIComponent(ident)}` }, NoContent),
  voicemailUrl: async (key: string) => (await apiRequest({ path: '/v1/s3/files', query: { key } }, SignedFileUrl)).signedUrl,
};

/** How the local stand-in's caller ends the call: a message, no answer, or hanging up during the greeting. */
export type SimulatedCallEnd = 'voicemail' | 'no-answer' | 'hang-up';

/** The local telephony stand-in's incoming call (npm start only): the same origin serves it. */
export async function simulateIncomingCall(from: string, end: SimulatedCallEnd): Promise<void> {
  const body = end === 'hang-up' ? { from, hangUp: 'greeting' } : { from, voicemail: end === 'voicemail' };
  const res = await fetch('/local/telephony/inbound', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`The local telephony stand-in answered ${res.status}`);
}
