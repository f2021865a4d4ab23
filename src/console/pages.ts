import { localTime } from '../clock/local-time.js';
import { describeEndpoint } from '../config/endpoint.js';
import { RESULT_VALUES } from '../report/row-result.js';
import type { CountedBatchView as BatchView } from './batch-views.js';
import { html, raw, scriptJson, type Raw } from './html.js';
import { LISTED_RESULTS } from './review-desk.js';

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
progress{width:120px;vertical-align:middle}.note{margin:0 0 2px}.hint{color:#66708a;font-size:12px}.error{color:#b42318}
.r-MATCH{color:#067647}.r-CLOSE_MATCH{color:#b54708}.r-NO_MATCH,.r-FAILED{color:#b42318;font-weight:600}
dl{display:grid;grid-template-columns:max-content 1fr;gap:2px 16px;margin:0}dt{color:#66708a}dd{margin:0}
.counts td{min-width:80px}
.filters{display:flex;gap:12px;align-items:center;flex-wrap:wrap;margin:0 0 8px}.filters input[type=search]{min-width:260px}
td.decision{min-width:230px}td.decision input{width:100%;box-sizing:border-box;margin:2px 0}.decided{font-weight:600}.d-APPROVED{color:#067647}.d-REJECTED{color:#b42318}
.mapping{margin-top:8px}.mapping label{margin-right:12px}`;

export interface PageContext {
  nonce: string;
  /** DISPLAY_TZ: times are shown in this zone, named as people know it (WIB). */
  timeZone: string;
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

/** What a person still has to do in a batch, and what was decided: `To review`, `Approved`, `Rejected` (empty before the report). */
const REVIEW_FIGURES = [
  ['needsReview', 'To review'],
  ['approved', 'Approved'],
  ['rejected', 'Rejected'],
] as const;

/** The zone's name as the pages write it (`WIB`). */
const zoneLabel = (timeZone: string): string => localTime(Date.now(), timeZone).split(' ').pop()!;

function batchRow(batch: BatchView, timeZone: string): Raw {
  return html`<tr data-batch="${batch.batchId}"><td><a href="/batches/${encodeURIComponent(batch.batchId)}">${batch.batchId}</a></td>
<td>${batch.source.name}</td><td>${localTime(batch.createdAt, timeZone)}</td><td class="num">${batch.rows}</td>
<td><progress max="100" value="${batch.percent}"></progress> <span class="percent">${batch.percent}%</span></td>
${SHORT_RESULTS.map(([result]) => html`<td class="num r-${result}">${batch.counts[result]}</td>`)}
${REVIEW_FIGURES.map(([figure]) => html`<td class="num review-${figure}">${batch.review?.[figure] ?? ''}</td>`)}<td class="state">${batch.state}</td></tr>`;
}

/** The upload form: CSV or XLSX; a file whose columns are not recognised gets a choice of columns (the page sends it again with them). */
function uploadSection(uploads: { maxMb: number; off: string | undefined }): Raw {
  if (uploads.off !== undefined) {
    return html`<section><h2>Check a file</h2><p class="hint" id="read-only">This console is read-only: checking a file needs the provider's settings (${uploads.off}). Batches, reports and decisions are all here.</p></section>`;
  }
  return html`<section><h2>Check a file</h2>
<form id="upload" method="post" action="/api/batches?then=page" enctype="multipart/form-data">
<input type="file" name="file" accept=".csv,.xlsx,text/csv" required> <button type="submit">Upload and check</button> <span id="upload-status" role="status"></span>
</form>
<div id="mapping" class="mapping" hidden><p>The file's columns are not recognised. Choose which column holds each:</p>
<label>Bank code <select id="map-bank"></select></label><label>Account number <select id="map-account"></select></label><label>Expected name <select id="map-name"></select></label>
<button type="button" id="map-submit">Check with these columns</button></div>
<p class="hint">A CSV or an Excel workbook (.xlsx, its first sheet) with a header row (bank code, account number, expected name), up to ${uploads.maxMb} MB. It is checked like <code>run</code>: the same content while its batch is unfinished joins that batch.</p></section>`;
}

/** `/`: the upload form and the batch table, kept live by polling `/api/batches`. */
export function indexPage(context: PageContext, batches: BatchView[], uploads: { maxMb: number; off: string | undefined }): string {
  const columns = 5 + SHORT_RESULTS.length + REVIEW_FIGURES.length + 1;
  const body = html`${uploadSection(uploads)}
<section><h2>Batches</h2><table id="batches"><thead><tr><th>Batch</th><th>Source</th><th>Created (${zoneLabel(context.timeZone)})</th><th class="num">Rows</th><th>Progress</th>
${SHORT_RESULTS.map(([, label]) => html`<th class="num">${label}</th>`)}${REVIEW_FIGURES.map(([, label]) => html`<th class="num">${label}</th>`)}<th>State</th></tr></thead>
<tbody>${batches.length === 0 ? html`<tr><td colspan="${columns}" class="hint">No batches yet.</td></tr>` : batches.map((batch) => batchRow(batch, context.timeZone))}</tbody></table></section>`;
  return layout(context, 'beneficiary-check: batches', body, `${timeScript(context.timeZone)}${INDEX_SCRIPT}`);
}

/** Who is deciding, as the console knows it (from the authenticating proxy), or why it knows nobody. */
export type Decider = { person: string } | { person: undefined; why: string };

/** `/batches/:id`: counts, live progress, the review desk (the rows a person looks at, and their decisions), the download. */
export function batchPage(context: PageContext, batch: BatchView, decider: Decider): string {
  const id = encodeURIComponent(batch.batchId);
  const reported = batch.state === 'reported';
  const body = html`<section><h2>Batch ${batch.batchId}</h2><dl>
<dt>Source</dt><dd>${batch.source.name}</dd><dt>Created</dt><dd>${localTime(batch.createdAt, context.timeZone)}</dd>
<dt>Endpoint</dt><dd id="endpoint">${batch.endpoint === null ? 'not recorded' : describeEndpoint(batch.endpoint)}</dd>
<dt>Rows</dt><dd><span id="rows">${batch.rows}</span> (<span id="invalid">${batch.invalidRows}</span> invalid)</dd>
${batch.notes.length === 0 ? '' : html`<dt>Read</dt><dd id="notes">${batch.notes.map((note) => html`<p class="note">${note}</p>`)}</dd>`}
<dt>Progress</dt><dd><progress id="progress" max="100" value="${batch.percent}"></progress> <span id="percent">${batch.percent}%</span> · <span id="answered">${batch.answered}</span>/<span id="accounts">${batch.accounts ?? '?'}</span> accounts · <span id="state">${batch.state}</span></dd>
<dt>Review</dt><dd><span id="review-needsReview">${batch.review?.needsReview ?? '?'}</span> to review · <span id="review-approved">${batch.review?.approved ?? '?'}</span> approved · <span id="review-rejected">${batch.review?.rejected ?? '?'}</span> rejected</dd>
<dt>Report</dt><dd><a id="download" href="/api/batches/${id}/report.csv" download ${reported ? '' : raw('hidden')}>Download the reconciliation report</a> <a id="summary" href="/api/batches/${id}/summary.json" ${reported ? '' : raw('hidden')}>summary</a><span id="report-pending" class="hint" ${reported ? raw('hidden') : ''}>written when every account is answered</span></dd>
</dl></section>
<section><h2>Results</h2><table class="counts"><tr>${RESULT_VALUES.map((result) => html`<th class="num">${result}</th>`)}</tr>
<tr>${RESULT_VALUES.map((result) => html`<td class="num r-${result}" id="count-${result}">${batch.counts[result]}</td>`)}</tr></table></section>
<section><h2>Review</h2>
<p class="hint">CLOSE_MATCH (names close: a person decides) and NO_MATCH (somebody else's name) are decided here: Approve (pay) or Reject (do not pay), with a note. A decision stands in every later report while the account, the expected name and the holder name stay the same. FAILED (no definitive answer: run again later), ACCOUNT_INVALID and INPUT_INVALID (fix them at the source) are listed too. Account numbers are masked; the download has them in full.</p>
${decider.person === undefined ? html`<p id="decider" class="error">${decider.why}</p>` : html`<p id="decider">Deciding as <strong>${decider.person}</strong></p>`}
<form id="filters" class="filters"><label>Result <select id="filter-result"><option value="">all listed</option>${LISTED_RESULTS.map((result) => html`<option value="${result}">${result}</option>`)}</select></label>
<label>Decision <select id="filter-decided"><option value="all">all</option><option value="undecided">to decide</option><option value="decided">decided</option></select></label>
<label>Search <input id="filter-q" type="search" placeholder="reference, name, or last digits of the account"></label> <button type="submit">Apply</button></form>
<table id="review"><thead><tr><th class="num">Row</th><th>Reference</th><th>Bank</th><th>Account</th><th>Expected name</th><th>Result</th><th class="num">Score</th><th>Holder name (bank)</th><th>Reason</th><th>Decision</th></tr></thead><tbody></tbody></table>
<p><button id="more" type="button" hidden>Show more</button> <span id="review-status" class="hint" role="status"></span></p></section>`;
  const settings = { batch: batch.batchId, canDecide: decider.person !== undefined };
  return layout(
    context,
    `beneficiary-check: ${batch.batchId}`,
    body,
    BATCH_SCRIPT.replace('__SETTINGS__', () => scriptJson(settings).value),
  );
}

/** The pages' own time formatting (the same function as the server's), for values the script writes. */
const timeScript = (timeZone: string): string =>
  `const TIME_ZONE = ${scriptJson(timeZone).value};\nconst localTime = ${localTime.toString()};\n`;

/** Shared by both pages: build a cell with text only. */
const DOM_HELPERS = `
function cell(row, text, className) { const td = document.createElement('td'); td.textContent = text == null ? '' : String(text); if (className) td.className = className; row.appendChild(td); return td; }
async function getJson(url) { const response = await fetch(url, { headers: { accept: 'application/json' } }); if (!response.ok) throw new Error(url + ': HTTP ' + response.status); return response.json(); }`;

const INDEX_SCRIPT = `${DOM_HELPERS}
const RESULTS = ${JSON.stringify(SHORT_RESULTS.map(([result]) => result))};
const FIGURES = ${JSON.stringify(REVIEW_FIGURES.map(([figure]) => figure))};
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
      cell(tr, batch.source.name); cell(tr, localTime(batch.createdAt, TIME_ZONE)); cell(tr, batch.rows, 'num');
      const progress = cell(tr, '');
      const bar = document.createElement('progress'); bar.max = 100; bar.value = batch.percent; progress.appendChild(bar);
      const percent = document.createElement('span'); percent.className = 'percent'; percent.textContent = ' ' + batch.percent + '%'; progress.appendChild(percent);
      for (const result of RESULTS) cell(tr, batch.counts[result], 'num r-' + result);
      for (const figure of FIGURES) cell(tr, batch.review ? batch.review[figure] : '', 'num review-' + figure);
      cell(tr, batch.state, 'state');
      return tr;
    });
    if (rows.length > 0) body.replaceChildren(...rows);
  } catch (error) { console.warn(error); }
}
setInterval(refresh, 1500);
const form = document.getElementById('upload');
async function upload(columns) {
  const status = document.getElementById('upload-status');
  status.className = ''; status.textContent = 'uploading...';
  const data = new FormData();
  // The chosen columns go before the file: the server reads them first.
  if (columns) for (const [name, value] of Object.entries(columns)) data.append(name, value);
  data.append('file', form.querySelector('input[name=file]').files[0]);
  try {
    const response = await fetch('/api/batches', { method: 'POST', body: data, headers: { accept: 'application/json' } });
    const answer = await response.json().catch(() => ({}));
    if (response.status === 202) { window.location.href = '/batches/' + encodeURIComponent(answer.batchId); return; }
    status.className = 'error'; status.textContent = answer.error || ('upload refused: HTTP ' + response.status);
    if (answer.columns) chooseColumns(answer.columns);
  } catch (error) { status.className = 'error'; status.textContent = String(error); }
}
function chooseColumns(columns) {
  const fill = (id, optional) => {
    const select = document.getElementById(id);
    const options = columns.map((column) => { const option = document.createElement('option'); option.value = String(column.index); option.textContent = (column.index + 1) + ': ' + column.name; return option; });
    if (optional) { const none = document.createElement('option'); none.value = ''; none.textContent = '(none: only check the account)'; options.unshift(none); }
    select.replaceChildren(...options);
  };
  fill('map-bank', false); fill('map-account', false); fill('map-name', true);
  document.getElementById('mapping').hidden = false;
}
if (form) {
  form.addEventListener('submit', (event) => { event.preventDefault(); document.getElementById('mapping').hidden = true; upload(); });
  document.getElementById('map-submit').addEventListener('click', () => upload({
    bankColumn: document.getElementById('map-bank').value,
    accountColumn: document.getElementById('map-account').value,
    nameColumn: document.getElementById('map-name').value,
  }));
}`;

const BATCH_SCRIPT = `${DOM_HELPERS}
const SETTINGS = __SETTINGS__;
const base = '/api/batches/' + encodeURIComponent(SETTINGS.batch);
let next = 0;
let reviewStarted = false;
let loading = false;
function filterQuery() {
  const result = document.getElementById('filter-result').value;
  const decided = document.getElementById('filter-decided').value;
  const q = document.getElementById('filter-q').value.trim();
  return (result ? '&result=' + encodeURIComponent(result) : '') + '&decided=' + encodeURIComponent(decided) + (q ? '&q=' + encodeURIComponent(q) : '');
}
function decisionCell(tr, row) {
  const td = cell(tr, '', 'decision');
  if (row.decision) {
    const shown = document.createElement('div');
    shown.className = 'decided d-' + row.decision.decision;
    shown.textContent = row.decision.decision + ' by ' + row.decision.decidedBy + ' · ' + row.decision.decidedAtShown;
    td.appendChild(shown);
    if (row.decision.note) { const note = document.createElement('div'); note.className = 'hint'; note.textContent = row.decision.note; td.appendChild(note); }
  }
  if (!row.decidable) { if (!row.decision) td.textContent = '—'; return; }
  if (!SETTINGS.canDecide) return;
  const note = document.createElement('input');
  note.type = 'text'; note.maxLength = 500; note.placeholder = 'note (optional)'; note.className = 'note';
  td.appendChild(note);
  for (const [value, label] of [['APPROVED', 'Approve'], ['REJECTED', 'Reject']]) {
    const button = document.createElement('button');
    button.type = 'button'; button.textContent = label; button.className = 'decide-' + value;
    button.addEventListener('click', () => decide(tr, row.row, value, note.value, row.decision ? row.decision.decidedAt : null));
    td.appendChild(button);
    td.appendChild(document.createTextNode(' '));
  }
  const status = document.createElement('span'); status.className = 'error decision-status'; status.setAttribute('role', 'status'); td.appendChild(status);
}
function reviewRow(row) {
  const tr = document.createElement('tr');
  tr.dataset.row = String(row.row);
  cell(tr, row.row, 'num'); cell(tr, row.reference); cell(tr, row.bankCode); cell(tr, row.accountNumber); cell(tr, row.expectedName);
  cell(tr, row.result, 'r-' + row.result); cell(tr, row.nameScore, 'num'); cell(tr, row.holderName); cell(tr, row.reason);
  decisionCell(tr, row);
  return tr;
}
async function decide(tr, row, decision, note, seen) {
  const status = tr.querySelector('.decision-status');
  status.textContent = 'recording...';
  try {
    const response = await fetch(base + '/rows/' + row + '/decision', { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify({ decision, note, seen }) });
    const answer = await response.json().catch(() => ({}));
    if (response.status !== 201) { status.textContent = answer.error || ('not recorded: HTTP ' + response.status); return; }
    tr.replaceWith(reviewRow(answer.row));
    refreshCounts();
  } catch (error) { status.textContent = String(error); }
}
async function loadReview(reset) {
  if (loading) return;
  if (reset) { next = 0; document.querySelector('#review tbody').replaceChildren(); }
  if (next === null) return;
  loading = true;
  const status = document.getElementById('review-status');
  status.textContent = 'reading...';
  try {
    const page = await getJson(base + '/review?from=' + next + '&limit=100' + filterQuery());
    const body = document.querySelector('#review tbody');
    for (const row of page.rows) body.appendChild(reviewRow(row));
    next = page.next;
    document.getElementById('more').hidden = next === null;
    status.textContent = next === null ? (body.children.length === 0 ? 'none: no row to show here' : body.children.length + ' rows') : body.children.length + ' rows so far';
  } catch (error) { status.textContent = String(error); }
  finally { loading = false; }
}
document.getElementById('more').addEventListener('click', () => loadReview(false));
document.getElementById('filters').addEventListener('submit', (event) => { event.preventDefault(); loadReview(true); });
for (const id of ['filter-result', 'filter-decided']) document.getElementById(id).addEventListener('change', () => loadReview(true));
function showCounts(batch) {
  for (const figure of ['needsReview', 'approved', 'rejected']) document.getElementById('review-' + figure).textContent = batch.review ? batch.review[figure] : '?';
}
async function refreshCounts() {
  try { showCounts(await getJson(base)); } catch (error) { console.warn(error); }
}
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
    showCounts(batch);
    const reported = batch.state === 'reported';
    document.getElementById('download').hidden = !reported;
    document.getElementById('summary').hidden = !reported;
    document.getElementById('report-pending').hidden = reported;
    if (reported && !reviewStarted) { reviewStarted = true; loadReview(true); }
    if (!reported) setTimeout(refresh, 1000);
  } catch (error) { console.warn(error); setTimeout(refresh, 3000); }
}
refresh();`;
