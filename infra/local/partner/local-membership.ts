import type { ServerResponse } from 'node:http';
import { MEMBERSHIP_ACTIONS, type MembershipAction } from '../../../shared/partners/partner-constants.js';

/**
 * The local membership stand-in of `npm start`: the core product's membership pages (open
 * membership, create charges, create user; spec shell §4) served from the local partner's origin,
 * so a membership window frames another origin and hears its window messages across origins as it
 * does deployed. What it is given is kept in memory and listed at GET /membership/records; the
 * patient's card (GET /membership/card?patientId=) shows it as the core product would, with the
 * "View Invoice" button the lab result screen points to (spec shell §2.5). Nothing here exists in a
 * deployed stack.
 */
export const LOCAL_MEMBERSHIP_LABEL = 'Local membership stand-in';

export interface MembershipRecord {
  action: MembershipAction;
  patientId: string;
  fields: Record<string, string>;
  at: string;
}

const FORMS: Record<MembershipAction, { intro: string; fields: string; submit: string }> = {
  open: {
    intro: 'Starts a membership for the patient in the core product.',
    fields: `<label for="plan">Plan</label><select id="plan" name="plan"><option>Direct Care Monthly ($79.00)</option><option>Family ($199.00)</option></select>
<label for="start">Start date</label><input id="start" name="start" type="date" required>`,
    submit: 'Open membership',
  },
  charges: {
    intro: 'Adds a one-time charge to the patient’s next invoice in the core product.',
    fields: `<label for="description">Description</label><input id="description" name="description" required maxlength="200" value="Lab draw fee">
<label for="amount">Amount (USD)</label><input id="amount" name="amount" required inputmode="decimal" pattern="\\d{1,6}(\\.\\d{2})?" value="25.00">`,
    submit: 'Create charge',
  },
  user: {
    intro: 'Creates the patient’s login to the patient portal of the core product.',
    fields: `<label for="email">Email</label><input id="email" name="email" type="email" required maxlength="200">`,
    submit: 'Create user',
  },
};

/** What the charges form takes: dollars, with cents if any. */
const AMOUNT = /^\d{1,6}(\.\d{2})?$/;

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;margin:1rem;color:#1a1a1a;background:#fff}label{display:block;margin-top:.5rem}input,select,button{font:inherit;box-sizing:border-box;width:100%}button{margin-top:.75rem;padding:.4rem 1rem;width:auto;background:#005377;color:#fff;border:0;border-radius:4px}:focus-visible{outline:3px solid #005377;outline-offset:2px}.tag{display:inline-block;background:#fff4ce;border:1px solid #8a6d00;padding:0 .5rem;border-radius:4px;font-size:.875rem}`;

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

export function isMembershipAction(value: string): value is MembershipAction {
  return Object.hasOwn(MEMBERSHIP_ACTIONS, value);
}

export function membershipPage(action: MembershipAction, appOrigin: string, query: URLSearchParams): string {
  const form = FORMS[action];
  const title = MEMBERSHIP_ACTIONS[action].label;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title} (${LOCAL_MEMBERSHIP_LABEL})</title>
<style>${STYLE}</style></head>
<body><main><h1>${title} <span class="tag">${LOCAL_MEMBERSHIP_LABEL}</span></h1>
<p>${form.intro}</p>
<form id="f" data-action="${action}" data-patient-id="${escapeHtml(query.get('patientId') ?? '')}" data-app-origin="${escapeHtml(appOrigin)}">
${form.fields}
<button type="submit">${form.submit}</button></form><p id="status" role="status"></p></main>
<script src="/membership.js"></script></body></html>`;
}

/** The page's script: it posts only to the app's origin, never '*'. */
export const MEMBERSHIP_SCRIPT = `
const form = document.getElementById('f');
const status = document.getElementById('status');
const start = document.getElementById('start');
if (start) start.value = new Date().toISOString().slice(0, 10);
form.addEventListener('submit', async (event) => {
  event.preventDefault();
  status.textContent = 'Saving…';
  const fields = Object.fromEntries(new FormData(form).entries());
  const response = await fetch('/membership/' + form.dataset.action, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ patientId: form.dataset.patientId, fields }) });
  if (!response.ok) { status.textContent = 'The core product did not take it (' + response.status + ').'; return; }
  status.textContent = 'Saved.';
  window.parent.postMessage({ type: 'success' }, form.dataset.appOrigin);
  window.parent.postMessage({ type: 'closeNote' }, form.dataset.appOrigin);
});
`;

const dollars = (cents: number) => `$${Math.floor(cents / 100).toLocaleString('en-US')}.${String(cents % 100).padStart(2, '0')}`;

/**
 * GET /membership/card?patientId=: the patient's card in the core product, from what its pages took.
 * "View Invoice" shows the upcoming invoice: the one-time charges recorded through Create charges.
 * Lab orders are not on it: nothing in Tidewell tells the core product about a lab order.
 */
export function membershipCardPage(records: readonly MembershipRecord[], query: URLSearchParams): string {
  const patientId = (query.get('patientId') ?? '').slice(0, 80);
  const own = records.filter((r) => r.patientId === patientId);
  const latest = (action: MembershipAction) => own.filter((r) => r.action === action).at(-1)?.fields;
  const membership = latest('open');
  const user = latest('user');
  const charges = own.filter((r) => r.action === 'charges');
  const cents = (r: MembershipRecord) => Math.round(Number(r.fields.amount) * 100);
  const rows = charges
    .map((r) => `<tr><td>${r.at.slice(0, 10)}</td><td>${escapeHtml(r.fields.description ?? '')}</td><td class="num">${dollars(cents(r))}</td></tr>`)
    .join('');
  const invoice = charges.length
    ? `<table><thead><tr><th scope="col">Date</th><th scope="col">Description</th><th scope="col" class="num">Amount</th></tr></thead><tbody>${rows}</tbody>
<tfoot><tr><th scope="row" colspan="2">Total</th><td class="num">${dollars(charges.reduce((sum, r) => sum + cents(r), 0))}</td></tr></tfoot></table>`
    : '<p>No charges yet.</p>';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Patient card (${LOCAL_MEMBERSHIP_LABEL})</title>
<style>${STYLE}dt{font-weight:600}dd{margin:0 0 .5rem}table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:.25rem .5rem;border-bottom:1px solid #767676}.num{text-align:right}</style></head>
<body><main><h1>Patient card <span class="tag">${LOCAL_MEMBERSHIP_LABEL}</span></h1>
<p>What the core product holds for patient ${escapeHtml(patientId) || '(none given)'}.</p>
<dl><dt>Membership</dt><dd>${membership ? `${escapeHtml(membership.plan ?? '')}, from ${escapeHtml(membership.start ?? '')}` : 'None'}</dd>
<dt>Portal user</dt><dd>${user ? escapeHtml(user.email ?? '') : 'None'}</dd></dl>
<button type="button" id="view-invoice" aria-expanded="false" aria-controls="invoice">View Invoice</button>
<section id="invoice" aria-labelledby="invoice-title" hidden><h2 id="invoice-title">Upcoming invoice</h2>
${invoice}
<p>One-time charges from Create charges. Lab orders are not sent to this stand-in.</p></section></main>
<script src="/membership-card.js"></script></body></html>`;
}

/** The card's script: View Invoice shows and hides the invoice. */
export const MEMBERSHIP_CARD_SCRIPT = `
const button = document.getElementById('view-invoice');
const invoice = document.getElementById('invoice');
button.addEventListener('click', () => {
  invoice.hidden = !invoice.hidden;
  button.setAttribute('aria-expanded', String(!invoice.hidden));
});
`;

/** POST /membership/<action> {patientId, fields}: kept as the core product would keep it. */
export function recordMembership(
  records: MembershipRecord[],
  action: MembershipAction,
  input: Record<string, unknown>,
  res: ServerResponse,
  headers: Record<string, string>,
): void {
  const patientId = typeof input.patientId === 'string' ? input.patientId.slice(0, 80) : '';
  const raw = input.fields && typeof input.fields === 'object' ? (input.fields as Record<string, unknown>) : {};
  const fields = Object.fromEntries(
    Object.entries(raw)
      .slice(0, 10)
      .map(([k, v]) => [k.slice(0, 40), String(v).slice(0, 200)]),
  );
  if (!patientId) {
    res.writeHead(400, { ...headers, 'content-type': 'application/json' }).end(JSON.stringify({ message: 'patientId is required' }));
    return;
  }
  if (action === 'charges' && !AMOUNT.test(fields.amount ?? '')) {
    res.writeHead(400, { ...headers, 'content-type': 'application/json' }).end(JSON.stringify({ message: 'amount must be in dollars, like 25.00' }));
    return;
  }
  records.push({ action, patientId, fields, at: new Date().toISOString() });
  if (records.length > 500) records.shift();
  res.writeHead(201, { ...headers, 'content-type': 'application/json' }).end(JSON.stringify({ ok: true }));
}
