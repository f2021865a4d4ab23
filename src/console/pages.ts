import { describeEndpoint } from '../config/endpoint.js';
import { RESULT_VALUES } from '../report/row-result.js';
import type { CountedBatchView as BatchView } from './batch-views.js';
import { html, raw, scriptJson, type Raw } from './html.js';

/**
 * The console's pages: plain server-rendered HTML, a little inline script that polls the JSON API and
 * writes values with `textContent` only (never markup), and a Content-Security-Policy that lets only the
 * page's own nonce-marked script and style run. No build step.
 */

const STYLE = `
body{font:14px/1.45 system-ui,sans-serif;margin:0;color:#1d2433;background:#f6f7f9}
header{background:#1d2433;color:#fff;padding:10px 24px;display:flex;gap:24px;align-items:baseline}
header h1{font-size:18px;margin:0}header a{color:#cfd8ea;text-decoration:none;margin-right:16px}
main{padding:16px 24px;max-width:1280px}section{background:#fff;border:1px solid #dde1e8;border-radius:6px;padding:12px 16px;margin-bottom:16px}
h2{font-size:15px;margin:0 0 8px}table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:4px 8px;border-bottom:1px solid #eef0f4;vertical-align:top}
th{font-weight:600;color:#4a5468;font-size:12px}td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}
progress{width:120px;vertical-align:middle}.hint{color:#66708a;font-size:12px}.error{color:#b42318}
.r-MATCH{color:#067647}.r-CLOSE_MATCH{color:#b54708}.r-NO_MATCH,.r-FAILED{color:#b42318;font-weight:600}
dl{display:grid;grid-template-columns:max-content 1fr;gap:2px 16px;margin:0}dt{color:#66708a}dd{margin:0}
.counts td{min-width:80px}`;

export interface PageContext {
  nonce: string;
}

/** The policy sent with every page: nothing loads or runs but the page itself and its nonce-marked parts. */
export const contentSecurityPolicy = (nonce: string): string =>
  `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'nonce-${nonce}'; connect-src 'self'; img-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'`;

function layout(context: PageContext, title: string, body: Raw, script: string): string {
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title><style nonce="${context.nonce}">${raw(STYLE)}</style></head>
<body><header><h1>beneficiary-check</h1><nav><a href="/">Batches</a><a href="/queues">Queues</a><a href="/metrics">Metrics</a></nav></header>
<main>${body}</main>
<script nonce="${context.nonce}">${raw(script)}</script></body></html>`.value;
}

const SHORT_RESULTS = [
  ['MATCH', 'Match'],
  ['CLOSE_MATCH', 'Close'],
  ['NO_MATCH', 'No match'],
  ['FAILED', 'Failed'],
] as const;

function batchRow(batch: BatchView): Raw {
  return html`<tr data-batch="${batch.batchId}"><td><a href="/batches/${encodeURIComponent(batch.batchId)}">${batch.batchId}</a></td>
<td>${batch.source.name}</td><td>${batch.createdAt.replace('T', ' ').slice(0, 19)}</td><td class="num">${batch.rows}</td>
<td><progress max="100" value="${batch.percent}"></progress> <span class="percent">${batch.percent}%</span></td>
${SHORT_RESULTS.map(([result]) => html`<td class="num r-${result}">${batch.counts[result]}</td>`)}<td class="state">${batch.state}</td></tr>`;
}

/** `/`: the upload form and the batch table, kept live by polling `/api/batches`. */
export function indexPage(context: PageContext, batches: BatchView[], uploadMaxMb: number): string {
  const body = html`<section><h2>Check a file</h2>
<form id="upload" method="post" action="/api/batches?then=page" enctype="multipart/form-data">
<input type="file" name="file" accept=".csv,text/csv" required> <button type="submit">Upload and check</button> <span id="upload-status" role="status"></span>
</form><p class="hint">A CSV with a header row (bank code, account number, expected name), up to ${uploadMaxMb} MB. It is checked like <code>run</code>: the same content while its batch is unfinished joins that batch.</p></section>
<section><h2>Batches</h2><table id="batches"><thead><tr><th>Batch</th><th>Source</th><th>Created (UTC)</th><th class="num">Rows</th><th>Progress</th>
${SHORT_RESULTS.map(([, label]) => html`<th class="num">${label}</th>`)}<th>State</th></tr></thead>
<tbody>${batches.length === 0 ? html`<tr><td colspan="10" class="hint">No batches yet.</td></tr>` : batches.map(batchRow)}</tbody></table></section>`;
  return layout(context, 'beneficiary-check: batches', body, INDEX_SCRIPT);
}

/** `/batches/:id`: counts, live progress, the rows that need a person, the download. */
export function batchPage(context: PageContext, batch: BatchView): string {
  const id = encodeURIComponent(batch.batchId);
  const body = html`<section><h2>Batch ${batch.batchId}</h2><dl>
<dt>Source</dt><dd>${batch.source.name}</dd><dt>Created (UTC)</dt><dd>${batch.createdAt.replace('T', ' ').slice(0, 19)}</dd>
<dt>Endpoint</dt><dd id="endpoint">${batch.endpoint === null ? 'not recorded' : describeEndpoint(batch.endpoint)}</dd>
<dt>Rows</dt><dd><span id="rows">${batch.rows}</span> (<span id="invalid">${batch.invalidRows}</span> invalid)</dd>
<dt>Progress</dt><dd><progress id="progress" max="100" value="${batch.percent}"></progress> <span id="percent">${batch.percent}%</span> · <span id="answered">${batch.answered}</span>/<span id="accounts">${batch.accounts ?? '?'}</span> accounts · <span id="state">${batch.state}</span></dd>
<dt>Report</dt><dd><a id="download" href="/api/batches/${id}/report.csv" download ${batch.state === 'reported' ? '' : raw('hidden')}>Download the reconciliation CSV</a> <a id="summary" href="/api/batches/${id}/summary.json" ${batch.state === 'reported' ? '' : raw('hidden')}>summary</a><span id="report-pending" class="hint" ${batch.state === 'reported' ? raw('hidden') : ''}>written when every account is answered</span></dd>
</dl></section>
<section><h2>Results</h2><table class="counts"><tr>${RESULT_VALUES.map((result) => html`<th class="num">${result}</th>`)}</tr>
<tr>${RESULT_VALUES.map((result) => html`<td class="num r-${result}" id="count-${result}">${batch.counts[result]}</td>`)}</tr></table></section>
<section><h2>Rows that need a person</h2><p class="hint">CLOSE_MATCH (a person must look), NO_MATCH (do not pay), FAILED (no definitive answer: run again later). Account numbers are masked; the download has them in full.</p>
<table id="review"><thead><tr><th class="num">Row</th><th>Reference</th><th>Bank</th><th>Account</th><th>Expected name</th><th>Result</th><th class="num">Score</th><th>Holder name (bank)</th><th>Reason</th></tr></thead><tbody></tbody></table>
<p><button id="more" type="button" hidden>Show more</button> <span id="review-status" class="hint" role="status"></span></p></section>`;
  return layout(context, `beneficiary-check: ${batch.batchId}`, body, BATCH_SCRIPT.replace('__BATCH__', () => scriptJson(batch.batchId).value));
}

/** Shared by both pages: build a cell with text only. */
const DOM_HELPERS = `
function cell(row, text, className) { const td = document.createElement('td'); td.textContent = text == null ? '' : String(text); if (className) td.className = className; row.appendChild(td); return td; }
async function getJson(url) { const response = await fetch(url, { headers: { accept: 'application/json' } }); if (!response.ok) throw new Error(url + ': HTTP ' + response.status); return response.json(); }`;

const INDEX_SCRIPT = `${DOM_HELPERS}
const RESULTS = ${JSON.stringify(SHORT_RESULTS.map(([result]) => result))};
async function refresh() {
  try {
    const { batches } = await getJson('/api/batches');
    const body = document.querySelector('#batches tbody');
    const rows = batches.map((batch) => {
      const tr = document.createElement('tr');
      tr.dataset.batch = batch.batchId;
      const link = document.createElement('a');
      link.href = '/batches/' + encodeURIComponent(batch.batchId);
      link.textContent = batch.batchId;
      const first = document.createElement('td'); first.appendChild(link); tr.appendChild(first);
      cell(tr, batch.source.name); cell(tr, batch.createdAt.replace('T', ' ').slice(0, 19)); cell(tr, batch.rows, 'num');
      const progress = cell(tr, '');
      const bar = document.createElement('progress'); bar.max = 100; bar.value = batch.percent; progress.appendChild(bar);
      const percent = document.createElement('span'); percent.className = 'percent'; percent.textContent = ' ' + batch.percent + '%'; progress.appendChild(percent);
      for (const result of RESULTS) cell(tr, batch.counts[result], 'num r-' + result);
      cell(tr, batch.state, 'state');
      return tr;
    });
    if (rows.length > 0) body.replaceChildren(...rows);
  } catch (error) { console.warn(error); }
}
setInterval(refresh, 1500);
document.getElementById('upload').addEventListener('submit', async (event) => {
  event.preventDefault();
  const status = document.getElementById('upload-status');
  status.className = ''; status.textContent = 'uploading...';
  try {
    const response = await fetch('/api/batches', { method: 'POST', body: new FormData(event.target), headers: { accept: 'application/json' } });
    const answer = await response.json().catch(() => ({}));
    if (response.status !== 202) { status.className = 'error'; status.textContent = answer.error || ('upload refused: HTTP ' + response.status); return; }
    window.location.href = '/batches/' + encodeURIComponent(answer.batchId);
  } catch (error) { status.className = 'error'; status.textContent = String(error); }
});`;

const BATCH_SCRIPT = `${DOM_HELPERS}
const BATCH = __BATCH__;
const base = '/api/batches/' + encodeURIComponent(BATCH);
let next = 0;
let reviewStarted = false;
async function loadReview() {
  if (next === null) return;
  const status = document.getElementById('review-status');
  status.textContent = 'reading...';
  try {
    const page = await getJson(base + '/review?from=' + next + '&limit=100');
    const body = document.querySelector('#review tbody');
    for (const row of page.rows) {
      const tr = document.createElement('tr');
      cell(tr, row.row, 'num'); cell(tr, row.reference); cell(tr, row.bankCode); cell(tr, row.accountNumber); cell(tr, row.expectedName);
      cell(tr, row.result, 'r-' + row.result); cell(tr, row.nameScore, 'num'); cell(tr, row.holderName); cell(tr, row.reason);
      body.appendChild(tr);
    }
    next = page.next;
    document.getElementById('more').hidden = next === null;
    status.textContent = next === null ? (body.children.length === 0 ? 'none: every row has a definitive, matching answer' : body.children.length + ' rows') : body.children.length + ' rows so far';
  } catch (error) { status.textContent = String(error); }
}
document.getElementById('more').addEventListener('click', loadReview);
async function refresh() {
  try {
    const batch = await getJson(base);
    document.getElementById('progress').value = batch.percent;
    document.getElementById('percent').textContent = batch.percent + '%';
    document.getElementById('answered').textContent = batch.answered;
    document.getElementById('accounts').textContent = batch.accounts == null ? '?' : batch.accounts;
    document.getElementById('rows').textContent = batch.rows;
    document.getElementById('invalid').textContent = batch.invalidRows;
    document.getElementById('state').textContent = batch.state;
    for (const [result, count] of Object.entries(batch.counts)) { const element = document.getElementById('count-' + result); if (element) element.textContent = count; }
    const reported = batch.state === 'reported';
    document.getElementById('download').hidden = !reported;
    document.getElementById('summary').hidden = !reported;
    document.getElementById('report-pending').hidden = reported;
    if (reported && !reviewStarted) { reviewStarted = true; loadReview(); }
    if (!reported) setTimeout(refresh, 1000);
  } catch (error) { console.warn(error); setTimeout(refresh, 3000); }
}
refresh();`;
