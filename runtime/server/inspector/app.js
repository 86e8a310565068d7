// The inspector page (GET /_ap/ui): the runs API (docs/guide.md "Runs API") read with the admin
// token, which the page asks for and keeps in this tab (sessionStorage) and sends as a bearer header:
// no cookie, so no other site can make the browser act with it (CSRF). The page itself holds no data.
// Every value shown comes from the API and is hostile: it is written as text (textContent, text
// nodes), never parsed as HTML, and only ever put in an attribute as an encoded #fragment.
const KEY = 'pipewright.admin-token';
const FILTERS = ['status', 'trigger', 'config', 'interface', 'since', 'until', 'limit'];
const STATUSES = new Set(['running', 'suspended', 'succeeded', 'failed', 'cancelled']);
const $ = (id) => document.getElementById(id);

let token = sessionStorage.getItem(KEY) ?? '';
// Each view's load is numbered: an answer arriving after the user moved on is dropped.
let seq = 0;
// The list (its filters and page) a run was opened from: its "back" link returns there.
let lastList = '#';

/** An element with text children (strings become text nodes) and plain attributes. */
function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'text') e.textContent = v;
    else if (k === 'class') e.className = v;
    else e.setAttribute(k, v);
  }
  e.append(...children);
  return e;
}

class Unauthorized extends Error {}

/** A run's API path. An id of `.` or `..` would be a dot segment (encoded or not, the URL parser
 *  resolves it): the call would leave /_ap/runs/ with the token, so it is refused. */
function runPath(id, tail = '') {
  if (id === '' || id === '.' || id === '..') throw new Error('That link does not name a run.');
  return `/_ap/runs/${encodeURIComponent(id)}${tail}`;
}

/** A runs API call with the token; its error answer's message as the Error's. */
async function api(path, method = 'GET') {
  const res = await fetch(path, { method, headers: { authorization: `Bearer ${token}`, accept: 'application/json' }, cache: 'no-store', credentials: 'omit', redirect: 'error' });
  const body = await res.json().catch(() => null);
  if (res.status === 401) { signOut('The admin token was not accepted.'); throw new Unauthorized(); }
  if (!res.ok) throw new Error(typeof body?.error?.message === 'string' ? body.error.message : `HTTP ${res.status}`);
  return body;
}

function notice(kind, ...parts) {
  const n = $('notice');
  n.className = kind;
  n.replaceChildren(...parts);
}

function failed(e) {
  if (!(e instanceof Unauthorized)) notice('error', `Error: ${e instanceof Error ? e.message : String(e)}`);
}

function show(view) {
  for (const id of ['login', 'list', 'run']) $(id).hidden = id !== view;
  $('signout').hidden = !token;
}

function signOut(why) {
  sessionStorage.removeItem(KEY);
  token = '';
  notice(why ? 'error' : '', why ?? 'Signed out.');
  show('login');
  $('token').focus();
}

const when = (iso) => (iso ? new Date(iso).toLocaleString() : '');

function duration(ms) {
  if (typeof ms !== 'number') return '';
  if (ms < 1000) return `${ms} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  return `${(ms / 60_000).toFixed(1)} min`;
}

/** What a suspended run waits for, and until when (a callback's timeout, a delay's or retry's wake). */
function waiting(w) {
  if (!w) return '';
  const at = w.at ? (w.reason === 'callback' ? `, times out ${when(w.at)}` : `, wakes ${when(w.at)}`) : '';
  return `${w.reason} in ${w.action}${at}`;
}

const json = (v) => JSON.stringify(v, null, 2) ?? '';
const statusClass = (s) => `status ${STATUSES.has(s) ? s : 'other'}`;

// datetime-local inputs hold local time without a zone; the hash and the API hold ISO instants.
const toIso = (local) => { const t = new Date(local); return Number.isNaN(t.getTime()) ? local : t.toISOString(); };
const toLocal = (iso) => { const t = new Date(iso); return Number.isNaN(t.getTime()) ? '' : new Date(t.getTime() - t.getTimezoneOffset() * 60_000).toISOString().slice(0, 19); };

// ---- the list: #?status=…&cursor=… ----

async function showList(params) {
  const mine = ++seq;
  lastList = location.hash || '#';
  show('list');
  const form = $('filters');
  for (const k of FILTERS) {
    const v = params.get(k) ?? (k === 'limit' ? '50' : '');
    form.elements[k].value = k === 'since' || k === 'until' ? toLocal(v) : v;
  }
  const q = new URLSearchParams();
  for (const k of [...FILTERS, 'cursor']) { const v = params.get(k); if (v) q.set(k, v); }
  let page;
  try { page = await api(`/_ap/runs?${q}`); } catch (e) { if (mine === seq) failed(e); return; }
  if (mine !== seq) return;
  const rows = document.createDocumentFragment();
  for (const r of page.runs) rows.append(runRow(r));
  if (!page.runs.length) rows.append(el('tr', {}, el('td', { colspan: '9', text: 'No runs match these filters.' })));
  $('rows').replaceChildren(rows);
  $('caption').textContent = `${page.runs.length} run${page.runs.length === 1 ? '' : 's'}, newest first${params.get('cursor') ? ' (an older page)' : ''}`;
  const older = $('older');
  older.disabled = !page.next_cursor;
  older.dataset.cursor = page.next_cursor ?? '';
  $('first').disabled = !params.get('cursor');
}

function runRow(r) {
  const link = el('a', { href: `#run/${encodeURIComponent(r.id)}`, title: r.id, 'aria-label': `Run ${r.id}: ${r.interface}, ${r.status}` }, String(r.id).slice(0, 8));
  return el('tr', {},
    el('td', {}, link),
    el('td', { text: when(r.started_at) }),
    el('td', { text: r.config }),
    el('td', { text: r.interface }),
    el('td', { text: r.trigger }),
    el('td', {}, el('span', { class: statusClass(r.status), text: r.status })),
    el('td', { text: r.http_code ?? '' }),
    el('td', { text: duration(r.duration_ms) }),
    el('td', { text: waiting(r.wake) }));
}

function listHash(params) {
  const q = new URLSearchParams();
  for (const [k, v] of params) if (v) q.set(k, v);
  return `#?${q}`;
}

function go(hash) {
  if (location.hash === hash) route(); else location.hash = hash;
}

// ---- one run: #run/<id> ----

async function showRun(id) {
  const mine = ++seq;
  show('run');
  $('back').setAttribute('href', lastList);
  for (const part of ['run-facts', 'run-buttons', 'actions']) $(part).replaceChildren();
  $('request').textContent = '';
  $('outcome').textContent = '';
  $('run-title').textContent = 'Loading…';
  let run;
  try { run = await api(runPath(id)); } catch (e) {
    if (mine === seq) { $('run-title').textContent = 'Run not shown'; failed(e); }
    return;
  }
  if (mine !== seq) return;
  const title = $('run-title');
  title.textContent = `${run.config}.${run.interface}: ${run.status}`;
  title.focus();
  const facts = [
    ['Run id', run.id], ['Status', run.status], ['Trigger', run.trigger], ['Started', when(run.started_at)],
    ['HTTP code', run.outcome?.http_code ?? ''], ['Current action', run.current_action ?? ''], ['Waiting for', waiting(run.status === 'suspended' && run.wake ? { action: run.current_action ?? '', ...run.wake } : undefined)],
  ];
  $('run-facts').replaceChildren(...facts.filter(([, v]) => v !== '').flatMap(([k, v]) => [el('dt', { text: k }), el('dd', { text: v })]));
  $('run-buttons').replaceChildren(...runButtons(run));
  $('actions').replaceChildren(...(run.actions ?? []).map(actionItem));
  if (!run.actions?.length) $('actions').append(el('li', { text: 'No action has finished.' }));
  const rq = run.request;
  $('request').textContent = rq ? `${rq.method} ${rq.path}\n${json({ params: rq.params, headers: rq.headers, body: rq.body })}` : '';
  $('outcome').textContent = run.outcome ? json(run.outcome) : 'none yet';
}

function actionItem(a) {
  const facts = [a.outcome, a.attempts !== undefined ? `${a.attempts} attempt${a.attempts === 1 ? '' : 's'}` : '', duration(a.duration_ms), a.http_status !== undefined ? `HTTP ${a.http_status}` : '']
    .filter(Boolean).join(' · ');
  const li = el('li', { class: `action ${a.outcome === 'failed' ? 'failed' : ''}` },
    el('h4', {}, el('span', { class: 'name', text: a.name }), ' ', el('span', { class: statusClass(a.outcome === 'waiting' ? 'suspended' : a.outcome), text: facts })));
  if (a.error !== undefined) li.append(el('p', { class: 'error-text' }, el('strong', { text: 'Error: ' }), String(a.error)));
  const how = failedHow(a);
  if (how) li.append(el('p', { class: 'failure-kind' }, el('strong', { text: 'Failed as: ' }), how));
  if (a.reason !== undefined) li.append(el('p', {}, el('strong', { text: 'Skipped: ' }), String(a.reason)));
  if (a.wake) li.append(el('p', {}, el('strong', { text: 'Waiting: ' }), waiting(a.wake)));
  if (a.assert !== undefined) li.append(details('Assert', a.assert));
  if ('data' in a) li.append(details('Data', a.data));
  if (a.body !== undefined) li.append(details('Response body', a.body));
  return li;
}

/** How a failed action failed, where the runs API says (its transport class, its refusal's status). */
function failedHow(a) {
  if (a.transport !== undefined) return `a transport failure (${String(a.transport)}${a.transport === 'connect' ? ': it never reached the server' : a.transport === 'timeout' ? ': it took too long' : ''})`;
  if (a.refused !== undefined) return `refused with ${String(a.refused)}${a.refused_in === 'settings' ? ', while its settings were filled in (before it ran: nothing was sent)' : ''}`;
  return '';
}

function details(label, value) {
  return el('details', {}, el('summary', { text: label }), el('pre', { text: json(value) }));
}

function runButtons(run) {
  const out = [];
  if (run.status === 'suspended') {
    const cancel = el('button', { type: 'button', text: 'Cancel this run…' });
    cancel.addEventListener('click', () => {
      const yes = el('button', { type: 'button', class: 'danger', text: 'Yes, cancel it' });
      const no = el('button', { type: 'button', text: 'Keep it waiting' });
      const ask = el('p', { role: 'group', 'aria-label': 'Confirm cancel' }, `Cancel run ${run.id}? Its waiting action fails as cancelled. `, yes, ' ', no);
      yes.addEventListener('click', async () => {
        try {
          await api(runPath(run.id, '/cancel'), 'POST');
          notice('', `Run ${run.id} cancelled.`);
          showRun(run.id);
        } catch (e) { failed(e); }
      });
      no.addEventListener('click', () => { $('run-buttons').replaceChildren(...runButtons(run)); });
      $('run-buttons').replaceChildren(ask);
      yes.focus();
    });
    out.push(cancel);
  }
  if (run.rerun?.possible) {
    const rerun = el('button', { type: 'button', text: 'Re-run' });
    rerun.addEventListener('click', async () => {
      rerun.disabled = true;
      try {
        const r = await api(runPath(run.id, '/rerun'), 'POST');
        notice('', `Re-ran as run `, el('a', { href: `#run/${encodeURIComponent(r.run_id)}`, text: r.run_id }), `: ${r.status} (HTTP ${r.response?.status}). A run that answered its caller with a success is kept only with capture: all.`);
      } catch (e) { failed(e); }
      rerun.disabled = false;
    });
    out.push(rerun);
  } else if (run.rerun) {
    out.push(el('p', { text: `Cannot be re-run: ${run.rerun.reason ?? ''}` }));
  }
  return out;
}

// ---- routing ----

function route() {
  if (!token) { show('login'); return; }
  const h = location.hash.slice(1);
  if (h.startsWith('run/')) {
    let id;
    try { id = decodeURIComponent(h.slice(4)); } catch { notice('error', 'That link does not name a run.'); return; }
    showRun(id);
    return;
  }
  showList(new URLSearchParams(h.startsWith('?') ? h.slice(1) : ''));
}

function start() {
  $('login').addEventListener('submit', (ev) => {
    ev.preventDefault();
    const t = $('token').value.trim();
    $('token').value = '';
    if (!t) return;
    token = t;
    sessionStorage.setItem(KEY, t);
    notice('', '');
    route();
  });
  $('signout').addEventListener('click', () => signOut());
  $('filters').addEventListener('submit', (ev) => {
    ev.preventDefault();
    const data = new FormData(ev.target);
    go(listHash(FILTERS.map((k) => {
      const v = String(data.get(k) ?? '').trim();
      return [k, v && (k === 'since' || k === 'until') ? toIso(v) : v];
    })));
  });
  $('older').addEventListener('click', () => {
    const params = new URLSearchParams(location.hash.startsWith('#?') ? location.hash.slice(2) : '');
    params.set('cursor', $('older').dataset.cursor ?? '');
    go(listHash(params));
  });
  $('first').addEventListener('click', () => {
    const params = new URLSearchParams(location.hash.startsWith('#?') ? location.hash.slice(2) : '');
    params.delete('cursor');
    go(listHash(params));
  });
  // A notice belongs to the view it was given in.
  window.addEventListener('hashchange', () => { notice('', ''); route(); });
  route();
}

start();
