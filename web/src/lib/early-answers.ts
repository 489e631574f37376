import { fetchAuthSession } from 'aws-amplify/auth';
import { buildUrl } from './api-url.js';
import { chartPatientOf } from './chart-address.js';
import { landingScreenOf } from './landing-screen-code.js';
import {
  CURRENT_USER_REQUEST,
  DASHBOARD_LAYOUT_REQUEST,
  MY_TASKS_WIDGET_SIZE,
  myOpenTasksRequest,
  patientRequest,
  PRACTICE_METADATA_REQUEST,
  UNREAD_COUNT_REQUEST,
  upcomingVisitsRequest,
  type FirstScreenRequest,
} from './first-screen-requests.js';

/**
 * A returning user's first answers are asked for as soon as config.json is in, while the app's code
 * is still downloading, rather than once that code has run and its screens have mounted: on a phone
 * network each is a CORS preflight and a request saved from the first screen's critical path. The
 * API client takes each answer once (`takeEarlyAnswer`), as the response to the same GET it would
 * have sent with the same ID token; an answer left untaken is dropped after a while and the screen
 * asks afresh. An answer asked with another token (a sign-out and another user's sign-in on the same
 * browser) is never handed over.
 */
const FRESH_MS = 15_000;

interface EarlyAnswer {
  at: number;
  /** The Authorization it was asked with, and the answer; undefined when there was no session to ask with. */
  asked: Promise<{ authorization: string; response: Response } | undefined>;
}

const answers = new Map<string, EarlyAnswer>();

/** The first screen's GET calls for this address: the session's own, and the dashboard's or the chart's. */
export function firstScreenRequests(hash: string, userId: string | undefined): FirstScreenRequest[] {
  const session = [CURRENT_USER_REQUEST, PRACTICE_METADATA_REQUEST, UNREAD_COUNT_REQUEST];
  const patientId = chartPatientOf(hash);
  if (patientId !== undefined) return [...session, patientRequest(patientId), upcomingVisitsRequest(patientId)];
  if (landingScreenOf(hash) === 'home') return [...session, DASHBOARD_LAYOUT_REQUEST, ...(userId ? [myOpenTasksRequest(userId, MY_TASKS_WIDGET_SIZE)] : [])];
  return session;
}

/** Asks for the first screen's answers with the stored session's ID token. */
export function askFirstScreenAnswers(hash: string, apiUrl: string, now = Date.now()): void {
  const token = fetchAuthSession().then(
    (session) => session.tokens?.idToken,
    () => undefined,
  );
  const ask = async (url: string) => {
    const idToken = await token;
    if (!idToken) return undefined;
    const authorization = `Bearer ${idToken.toString()}`;
    return { authorization, response: await fetch(url, { headers: { Accept: 'application/json', Authorization: authorization } }) };
  };
  // Each address once: one the screen has already taken is not asked for again.
  const sent = new Set<string>();
  const askOnce = (requests: FirstScreenRequest[]) => {
    for (const request of requests) {
      const url = buildUrl(apiUrl, request.path, request.query);
      if (sent.has(url)) continue;
      sent.add(url);
      remember(url, ask, now);
    }
  };
  // The session's own answers go first, without waiting for the token's user id.
  askOnce(firstScreenRequests(hash, undefined));
  void token.then((idToken) => askOnce(firstScreenRequests(hash, typeof idToken?.payload.sub === 'string' ? idToken.payload.sub : undefined)));
}

function remember(url: string, ask: (url: string) => EarlyAnswer['asked'], now: number): void {
  const asked = ask(url);
  // A network failure is the client's to report, when it takes the answer; untaken, it is dropped.
  asked.catch(() => undefined);
  answers.set(url, { at: now, asked });
}

/**
 * The early answer to this GET address, once, if it was asked with this same Authorization; resolves
 * to undefined when it was not (the client then asks itself). Undefined when there is none or it is
 * too old to show.
 */
export function takeEarlyAnswer(url: string, authorization: string | undefined, now = Date.now()): Promise<Response | undefined> | undefined {
  const early = answers.get(url);
  if (!early) return undefined;
  answers.delete(url);
  if (now - early.at > FRESH_MS || authorization === undefined) return undefined;
  return early.asked.then((answer) => (answer?.authorization === authorization ? answer.response : undefined));
}
