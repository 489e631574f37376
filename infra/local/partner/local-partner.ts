import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { deliverySignature } from '../../../functions/lib/http/signed-delivery.js';
import { DELIVERY_HEADERS, EXTERNAL_NOTE_SOURCES } from '../../../shared/partners/partner-schema.js';
import { runtimeError } from '../runtime-log.js';
import {
  isMembershipAction,
  MEMBERSHIP_CARD_SCRIPT,
  MEMBERSHIP_SCRIPT,
  membershipCardPage,
  membershipPage,
  recordMembership,
  type MembershipRecord,
} from './local-membership.js';

/**
 * The local demo partner of `npm start`: a partner app on a second local origin (its own port), so
 * the note window's frame, the CSP's frame-src and the origin checks of window messages work as
 * they do with a real partner. Its page writes a small result through its own server, which signs
 * it with the partner's secret and sends it to the API's signed delivery route, then the page posts
 * `success` and `closeNote` to the window that frames it. Nothing here exists in a deployed stack.
 */
export const LOCAL_PARTNER_ID = 'local-care-plan';
export const LOCAL_PARTNER_LABEL = 'Local partner';

/** `<data folder>/partner-secrets.json`: what the Secrets Manager secret holds deployed. */
export function ensureLocalPartnerSecrets(dataDir: string, partnerIds: readonly string[]): string {
  const file = join(dataDir, 'partner-secrets.json');
  const secrets = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>) : {};
  let changed = false;
  for (const id of [...partnerIds, ...Object.keys(EXTERNAL_NOTE_SOURCES)]) {
    if (typeof secrets[id] === 'string' && secrets[id].length >= 16) continue;
    secrets[id] = randomBytes(24).toString('hex');
    changed = true;
  }
  if (changed || !existsSync(file)) {
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(file, `${JSON.stringify(secrets, null, 2)}\n`, { mode: 0o600 });
  }
  return file;
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

function page(appOrigin: string, query: URLSearchParams): string {
  const noteId = query.get('noteId') ?? '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Care plan builder (${LOCAL_PARTNER_LABEL})</title>
<style>body{font:16px/1.5 system-ui,sans-serif;margin:1rem;color:#1a1a1a;background:#fff}label{display:block;margin-top:.5rem}input,textarea,button{font:inherit;box-sizing:border-box;width:100%}textarea{min-height:5rem}button{margin-top:.75rem;padding:.4rem 1rem;width:auto;background:#005377;color:#fff;border:0;border-radius:4px}:focus-visible{outline:3px solid #005377;outline-offset:2px}.tag{display:inline-block;background:#fff4ce;border:1px solid #8a6d00;padding:0 .5rem;border-radius:4px;font-size:.875rem}</style></head>
<body><main><h1>Care plan builder <span class="tag">${LOCAL_PARTNER_LABEL}</span></h1>
<p>A demo partner app served by npm start from its own origin. It writes a small result into the note.</p>
<form id="f" data-note-id="${escapeHtml(noteId)}" data-app-origin="${escapeHtml(appOrigin)}">
<label for="goal">Goal</label><input id="goal" name="goal" value="Walk 30 minutes a day" required maxlength="200">
<label for="summary">Summary</label><textarea id="summary" name="summary" required maxlength="2000">Follow up in four weeks.</textarea>
<button type="submit">Save care plan</button></form><p id="status" role="status"></p></main>
<script src="/app.js"></script></body></html>`;
}

/** The page's script: the frame posts only to the app's origin, never '*'. */
const SCRIPT = `
const form = document.getElementById('f');
const status = document.getElementById('status');
form.addEventListener('submit', async (event) => {
  event.preventDefault();
  status.textContent = 'Saving…';
  const noteId = form.dataset.noteId;
  const appOrigin = form.dataset.appOrigin;
  const response = await fetch('/deliver', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ noteId, goal: form.goal.value, summary: form.summary.value }) });
  if (!response.ok) { status.textContent = 'The practice did not take the care plan (' + response.status + ').'; return; }
  status.textContent = 'Saved.';
  window.parent.postMessage({ type: 'success' }, appOrigin);
  window.parent.postMessage({ type: 'closeNote', noteId }, appOrigin);
});
`;

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > 100_000) throw new Error('too large');
    chunks.push(chunk as Buffer);
  }
  return JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
}

export interface LocalPartner {
  origin: string;
  stop(): Promise<void>;
}

export interface LocalPartnerOptions {
  /** Port to try first; 0 or a taken port falls back to any free port. */
  port: number;
  host?: string;
  /** The app's web origin: the only window the page posts to, and the only one that may frame it. */
  appOrigin: string;
  /** Where the API is reached from this process. */
  apiUrl: string;
  secretsFile: string;
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((done, fail) => {
    server.once('error', fail);
    server.listen(port, host, () => {
      server.off('error', fail);
      done();
    });
  });
}

export async function startLocalPartner(opts: LocalPartnerOptions): Promise<LocalPartner> {
  const headers = {
    // This page may be framed by the app only; it talks only to itself.
    'content-security-policy': `default-src 'self'; style-src 'unsafe-inline'; frame-ancestors ${opts.appOrigin}; form-action 'self'`,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'cache-control': 'no-store',
  };
  const membershipRecords: MembershipRecord[] = [];
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://local');
    // The local membership stand-in (local-membership.ts) shares this origin.
    const membershipAction = url.pathname.startsWith('/membership/') ? url.pathname.slice('/membership/'.length) : '';
    if (req.method === 'GET' && isMembershipAction(membershipAction)) {
      res.writeHead(200, { ...headers, 'content-type': 'text/html; charset=utf-8' }).end(membershipPage(membershipAction, opts.appOrigin, url.searchParams));
      return;
    }
    if (req.method === 'GET' && url.pathname === '/membership.js') {
      res.writeHead(200, { ...headers, 'content-type': 'text/javascript; charset=utf-8' }).end(MEMBERSHIP_SCRIPT);
      return;
    }
    if (req.method === 'GET' && url.pathname === '/membership/card') {
      res.writeHead(200, { ...headers, 'content-type': 'text/html; charset=utf-8' }).end(membershipCardPage(membershipRecords, url.searchParams));
      return;
    }
    if (req.method === 'GET' && url.pathname === '/membership-card.js') {
      res.writeHead(200, { ...headers, 'content-type': 'text/javascript; charset=utf-8' }).end(MEMBERSHIP_CARD_SCRIPT);
      return;
    }
    if (req.method === 'GET' && url.pathname === '/membership/records') {
      res.writeHead(200, { ...headers, 'content-type': 'application/json' }).end(JSON.stringify({ records: membershipRecords }));
      return;
    }
    if (req.method === 'POST' && isMembershipAction(membershipAction)) {
      readJson(req)
        .then((input) => recordMembership(membershipRecords, membershipAction, input, res, headers))
        .catch(() => res.writeHead(400, { ...headers, 'content-type': 'application/json' }).end(JSON.stringify({ message: 'Not JSON' })));
      return;
    }
    if (req.method === 'GET' && (url.pathname === '/' || url.pathname === '/app')) {
      res.writeHead(200, { ...headers, 'content-type': 'text/html; charset=utf-8' }).end(page(opts.appOrigin, url.searchParams));
      return;
    }
    if (req.method === 'GET' && url.pathname === '/app.js') {
      res.writeHead(200, { ...headers, 'content-type': 'text/javascript; charset=utf-8' }).end(SCRIPT);
      return;
    }
    if (req.method === 'POST' && url.pathname === '/deliver') {
      readJson(req)
        .then(async (input) => {
          const secrets = JSON.parse(readFileSync(opts.secretsFile, 'utf8')) as Record<string, string>;
          const body = JSON.stringify({
            deliveryId: randomUUID(),
            noteId: String(input.noteId ?? ''),
            result: {
              title: 'Care plan',
              summary: String(input.summary ?? '').slice(0, 2000),
              fields: [{ label: 'Goal', value: String(input.goal ?? '').slice(0, 200) }],
            },
          });
          const timestamp = String(Math.floor(Date.now() / 1000));
          const answer = await fetch(`${opts.apiUrl}/v1/partner-deliveries/${LOCAL_PARTNER_ID}/results`, {
            method: 'POST',
            headers: {
              'content-type': 'application/json',
              [DELIVERY_HEADERS.timestamp]: timestamp,
              [DELIVERY_HEADERS.signature]: deliverySignature(secrets[LOCAL_PARTNER_ID] ?? '', timestamp, body),
            },
            body,
          });
          res.writeHead(answer.status, { ...headers, 'content-type': 'application/json' }).end(await answer.text());
        })
        .catch((error: unknown) => {
          runtimeError('Local partner: delivery failed', error);
          if (!res.headersSent) res.writeHead(502, { ...headers, 'content-type': 'application/json' }).end(JSON.stringify({ message: 'Delivery failed' }));
        });
      return;
    }
    res.writeHead(404, { ...headers, 'content-type': 'text/plain' }).end('Not found');
  });
  const host = opts.host ?? '127.0.0.1';
  try {
    await listen(server, opts.port, host);
  } catch {
    await listen(server, 0, host);
  }
  const origin = `http://localhost:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    stop: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}
