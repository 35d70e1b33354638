// The operators' console: plain modules, no build step. Everything shown comes from the API the
// service publishes; text from flyers is untrusted, so it is only ever set as text or input values.

const state = { token: null, me: null, refreshing: null, pollTimer: null, job: null };

// ---- API ------------------------------------------------------------------------------------

/** The access token lives in memory only; the httpOnly refresh cookie renews it. */
async function refreshToken() {
  state.refreshing ??= fetch('/api/auth/refresh', { method: 'POST', credentials: 'same-origin' })
    .then(async (res) => {
      state.token = res.ok ? (await res.json()).access_token : null;
      return state.token;
    })
    .finally(() => (state.refreshing = null));
  return state.refreshing;
}

async function api(method, path, body, { raw = false } = {}) {
  const send = () => {
    const headers = {};
    if (state.token) headers.authorization = `Bearer ${state.token}`;
    let payload;
    if (body instanceof FormData) payload = body;
    else if (body !== undefined) {
      headers['content-type'] = 'application/json';
      payload = JSON.stringify(body);
    }
    return fetch(path, { method, headers, body: payload, credentials: 'same-origin' });
  };
  let res = await send();
  if (res.status === 401 && (await refreshToken())) res = await send();
  if (res.status === 401) {
    showLogin();
    throw new Error('Signed out');
  }
  if (raw) return res;
  if (res.status === 204) return null;
  const data = res.headers.get('content-type')?.includes('json') ? await res.json() : null;
  if (!res.ok) throw new Error(data?.detail ?? `${res.status} ${res.statusText}`);
  return data;
}

// ---- DOM helpers ----------------------------------------------------------------------------

const $ = (id) => document.getElementById(id);

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === 'class') node.className = value;
    else if (key === 'dataset') Object.assign(node.dataset, value);
    else if (key.startsWith('on')) node.addEventListener(key.slice(2), value);
    else if (key === 'value') node.value = value;
    else if (key === 'style')
      node.style.cssText = value; // CSSOM: allowed by the console's CSP
    else node.setAttribute(key, value === true ? '' : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

function table(node, headings, rows) {
  node.replaceChildren(
    el(
      'thead',
      {},
      el(
        'tr',
        {},
        headings.map((h) => el('th', {}, h)),
      ),
    ),
    el('tbody', {}, rows),
  );
}

const money = (n) => `$${Number(n).toFixed(n < 1 ? 4 : 2)}`;
const when = (iso) => (iso ? new Date(iso).toLocaleString() : '');

function show(view) {
  for (const id of ['login-view', 'home-view', 'store-view', 'job-view']) $(id).hidden = id !== view;
  $('logout').hidden = view === 'login-view';
}

function crumbs(...parts) {
  $('crumbs').replaceChildren(
    ...parts.flatMap((part, i) => [
      i ? ' › ' : '',
      part.href ? el('a', { href: part.href }, part.text) : part.text,
    ]),
  );
}

// ---- Sign-in --------------------------------------------------------------------------------

function showLogin() {
  stopPolling();
  state.token = null;
  crumbs();
  $('who').textContent = '';
  show('login-view');
  $('login-form').elements.email.focus();
}

$('login-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  const form = event.currentTarget;
  $('login-error').textContent = '';
  const res = await fetch('/api/auth/login', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    credentials: 'same-origin',
    body: JSON.stringify({ email: form.elements.email.value, password: form.elements.password.value }),
  });
  const data = await res.json().catch(() => ({}));
  if (!res.ok) {
    $('login-error').textContent = data.detail ?? 'Sign-in failed.';
    return;
  }
  state.token = data.access_token;
  form.reset();
  await start();
});

$('logout').addEventListener('click', async () => {
  await api('POST', '/api/auth/logout').catch(() => undefined);
  showLogin();
});

// ---- Start page: spend and stores -----------------------------------------------------------

async function renderHome() {
  crumbs({ text: 'Start' });
  show('home-view');
  const [spend, stores] = await Promise.all([
    api('GET', '/api/admin/spend?days=7&limit=10'),
    api('GET', '/api/stores'),
  ]);
  $('spend-range').textContent = `${spend.from} – ${spend.to}`;
  const t = spend.totals;
  $('spend-totals').replaceChildren(
    el('div', {}, el('b', { id: 'spend-cost' }, money(t.cost_usd)), 'estimated cost'),
    el('div', {}, el('b', {}, t.calls), 'model calls'),
    el('div', {}, el('b', {}, (t.input_tokens + t.output_tokens).toLocaleString()), 'tokens'),
  );
  table(
    $('spend-features'),
    ['Feature', 'Calls', 'Tokens', 'Cost'],
    spend.by_feature.map((f) =>
      el(
        'tr',
        {},
        el('td', {}, f.feature),
        el('td', {}, f.calls),
        el('td', {}, (f.input_tokens + f.output_tokens).toLocaleString()),
        el('td', {}, money(f.cost_usd)),
      ),
    ),
  );
  table(
    $('spend-users'),
    ['Top users', 'Tier', 'Calls', 'Cost'],
    spend.top_users.map((u) =>
      el(
        'tr',
        {},
        el('td', {}, u.email ?? u.user_id),
        el('td', {}, u.tier ?? ''),
        el('td', {}, u.calls),
        el('td', {}, money(u.cost_usd)),
      ),
    ),
  );
  table(
    $('stores'),
    ['Store', 'Live promotions'],
    stores.map((s) =>
      el(
        'tr',
        {},
        el('td', {}, el('a', { href: `#/stores/${s.id}` }, s.name)),
        el('td', {}, s.promotion_count ?? ''),
      ),
    ),
  );
}

$('store-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  const form = event.currentTarget;
  try {
    const store = await api('POST', '/api/admin/stores', {
      name: form.elements.name.value,
      logo_url: form.elements.logo_url.value,
    });
    form.reset();
    location.hash = `#/stores/${store.id}`;
  } catch (error) {
    alert(error.message);
  }
});

// ---- A store: its flyer jobs, live ----------------------------------------------------------

function stopPolling() {
  clearTimeout(state.pollTimer);
  state.pollTimer = null;
}

async function renderStore(storeId) {
  const stores = await api('GET', '/api/stores');
  const store = stores.find((s) => s.id === storeId);
  if (!store) return void (location.hash = '#/');
  crumbs({ text: 'Start', href: '#/' }, { text: store.name });
  $('store-title').textContent = store.name;
  $('upload-form').dataset.store = storeId;
  show('store-view');
  const poll = async () => {
    const { jobs } = await api('GET', `/api/admin/stores/${storeId}/jobs`);
    table(
      $('jobs'),
      ['Uploaded', 'Status', 'Pages read', 'Candidates', 'Finished', ''],
      jobs.map((j) =>
        el(
          'tr',
          { dataset: { job: j.id } },
          el('td', {}, when(j.created_at)),
          el(
            'td',
            { class: `status-${j.status}` },
            j.status,
            j.error ? el('div', { class: 'muted' }, j.error) : null,
          ),
          el('td', {}, j.pages_processed),
          el('td', {}, j.candidates_extracted),
          el('td', {}, when(j.completed_at)),
          el('td', {}, el('a', { href: `#/stores/${storeId}/jobs/${j.id}` }, 'Review')),
        ),
      ),
    );
    const busy = jobs.some((j) => j.status === 'pending' || j.status === 'processing');
    if (location.hash === `#/stores/${storeId}`) state.pollTimer = setTimeout(poll, busy ? 1500 : 5000);
  };
  await poll();
}

$('upload-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  const form = event.currentTarget;
  const data = new FormData();
  data.append('file', form.elements.file.files[0]);
  $('upload-status').textContent = 'Uploading…';
  try {
    await api('POST', `/api/admin/stores/${form.dataset.store}/promotions/upload`, data);
    $('upload-status').textContent = 'Uploaded: processing.';
    form.reset();
    stopPolling();
    await renderStore(form.dataset.store);
  } catch (error) {
    $('upload-status').textContent = error.message;
  }
});

// ---- A job: pages beside their candidates ---------------------------------------------------

const FIELDS = [
  ['product', 'text'],
  ['brand', 'text'],
  ['original_price', 'number'],
  ['discounted_price', 'number'],
  ['unit', 'text'],
  ['valid_until', 'date'],
];

async function allCandidates(storeId, jobId, includeLow) {
  const items = [];
  for (let offset = 0; ; offset += 200) {
    const page = await api(
      'GET',
      `/api/admin/stores/${storeId}/candidates?job_id=${jobId}&limit=200&offset=${offset}&include_low_confidence=${includeLow}`,
    );
    items.push(...page.items);
    if (items.length >= page.total || page.items.length === 0) return items;
  }
}

async function renderJob(storeId, jobId) {
  state.job = null;
  $('pages').replaceChildren(); // never show another job's candidates while this one loads
  const [stores, { jobs }] = await Promise.all([
    api('GET', '/api/stores'),
    api('GET', `/api/admin/stores/${storeId}/jobs`),
  ]);
  const store = stores.find((s) => s.id === storeId);
  const job = jobs.find((j) => j.id === jobId);
  if (!store || !job) return void (location.hash = '#/');
  crumbs(
    { text: 'Start', href: '#/' },
    { text: store.name, href: `#/stores/${storeId}` },
    { text: `Flyer of ${when(job.created_at)}` },
  );
  show('job-view');
  $('job-title').textContent = `${store.name}: ${job.status}, ${job.pages_processed} pages`;
  $('job-status').textContent = '';
  const [all, listed] = await Promise.all([
    allCandidates(storeId, jobId, true),
    allCandidates(storeId, jobId, false),
  ]);
  const normal = new Set(listed.map((c) => c.id));
  for (const c of all) c.low = !normal.has(c.id);
  state.job = { storeId, jobId, candidates: all, current: 0, selected: new Set() };
  const pages = new Set(all.map((c) => c.page));
  for (let p = 1; p <= job.pages_processed; p++) pages.add(p);
  $('pages').replaceChildren(
    ...[...pages]
      .sort((a, b) => a - b)
      .map((p) =>
        renderPage(
          p,
          all.filter((c) => c.page === p),
        ),
      ),
  );
  updateCounts();
  focusCandidate(0, { scroll: false });
}

function renderPage(number, candidates) {
  const picture = el(
    'div',
    { class: 'picture', dataset: { page: number } },
    el('div', { class: 'muted' }, `Page ${number}: drawing…`),
  );
  loadPicture(picture, number, candidates);
  const rows = candidates.map((c) => candidateRow(c));
  return el(
    'section',
    { class: 'card page', id: `page-${number}` },
    picture,
    el(
      'div',
      {},
      el('h3', {}, `Page ${number}`, el('span', { class: 'muted' }, ` · ${candidates.length} candidates`)),
      candidates.length
        ? el(
            'table',
            { class: 'grid candidates' },
            el(
              'thead',
              {},
              el(
                'tr',
                {},
                ['', 'Product', 'Brand', 'Was', 'Now', 'Unit', 'Valid until', 'Conf.', ''].map((h) =>
                  el('th', {}, h),
                ),
              ),
            ),
            el('tbody', {}, rows),
          )
        : el('p', { class: 'muted' }, 'No candidate was read on this page.'),
    ),
  );
}

async function loadPicture(holder, number, candidates) {
  const res = await api('GET', `/api/admin/jobs/${state.job.jobId}/pages/${number}`, undefined, {
    raw: true,
  });
  if (!res.ok) {
    holder.replaceChildren(el('p', { class: 'error' }, `Page ${number} cannot be drawn.`));
    return;
  }
  const scale = Number(res.headers.get('x-render-scale'));
  const url = URL.createObjectURL(await res.blob());
  const img = el('img', { src: url, alt: `Flyer page ${number}` });
  await img.decode().catch(() => undefined);
  const boxes = candidates
    .filter((c) => c.box)
    .map((c) =>
      el('div', {
        class: boxClass(c),
        dataset: { candidate: c.id },
        title: `${c.product} · ${c.discounted_price}`,
        style: boxStyle(c.box, scale, img.naturalWidth, img.naturalHeight),
        onclick: () => focusCandidate(state.job.candidates.indexOf(c)),
      }),
    );
  holder.replaceChildren(img, ...boxes);
}

/** Box in PDF points → percentages of the picture, so it follows the picture's displayed size. */
function boxStyle(box, scale, width, height) {
  const pct = (v, of) => `${((v * scale) / of) * 100}%`;
  return `left:${pct(box.x, width)};top:${pct(box.y, height)};width:${pct(box.width, width)};height:${pct(box.height, height)}`;
}

const boxClass = (c) =>
  [
    'box',
    c.low ? 'low' : '',
    c.status === 'rejected' ? 'rejected' : '',
    state.job.candidates[state.job.current] === c ? 'current' : '',
  ]
    .filter(Boolean)
    .join(' ');

function rowClass(c) {
  return [c.low ? 'low' : '', c.status === 'rejected' ? 'rejected' : '', c.status === 'live' ? 'live' : '']
    .filter(Boolean)
    .join(' ');
}

function candidateRow(c) {
  const select = el('input', {
    type: 'checkbox',
    'aria-label': 'Select for promotion',
    disabled: c.status !== 'candidate',
    onchange: (e) => toggleSelected(c, e.target.checked),
  });
  const inputs = FIELDS.map(([field, type]) =>
    el('input', {
      type,
      name: field,
      value: c[field],
      step: type === 'number' ? '0.01' : undefined,
      'aria-label': field.replace('_', ' '),
      onkeydown: (e) => {
        if (e.key === 'Enter') {
          e.preventDefault();
          saveCandidate(c, e.target.closest('tr'));
        }
        if (e.key === 'Escape') e.target.blur();
      },
      onchange: (e) => saveCandidate(c, e.target.closest('tr')),
    }),
  );
  const row = el(
    'tr',
    {
      class: rowClass(c),
      dataset: { candidate: c.id },
      onclick: () => focusCandidate(state.job.candidates.indexOf(c), { scroll: false }),
    },
    el('td', {}, select),
    inputs.map((input) => el('td', {}, input)),
    el('td', {}, c.confidence.toFixed(2)),
    el(
      'td',
      {},
      el(
        'button',
        { type: 'button', onclick: () => rejectCandidate(c), disabled: c.status === 'rejected' },
        'Reject',
      ),
    ),
  );
  return row;
}

function rowOf(c) {
  return document.querySelector(`tr[data-candidate="${c.id}"]`);
}

function refreshMarks(c) {
  const row = rowOf(c);
  if (row) {
    row.className = [rowClass(c), state.job.candidates[state.job.current] === c ? 'current' : '']
      .filter(Boolean)
      .join(' ');
    row.querySelector('input[type=checkbox]').disabled = c.status !== 'candidate';
    row.querySelector('input[type=checkbox]').checked = state.job.selected.has(c.id);
    row.querySelector('button').disabled = c.status === 'rejected';
  }
  const box = document.querySelector(`.box[data-candidate="${c.id}"]`);
  if (box) box.className = boxClass(c);
}

function focusCandidate(index, { scroll = true } = {}) {
  const job = state.job;
  if (!job || job.candidates.length === 0) return;
  const previous = job.candidates[job.current];
  job.current = Math.max(0, Math.min(job.candidates.length - 1, index));
  if (previous) refreshMarks(previous);
  const c = job.candidates[job.current];
  refreshMarks(c);
  if (scroll) rowOf(c)?.scrollIntoView({ block: 'center', behavior: 'instant' });
}

function toggleSelected(c, on) {
  if (c.status !== 'candidate') return;
  if (on) state.job.selected.add(c.id);
  else state.job.selected.delete(c.id);
  refreshMarks(c);
  updateCounts();
}

function updateCounts() {
  const list = state.job.candidates;
  const count = (status) => list.filter((c) => c.status === status).length;
  $('job-counts').textContent =
    `${list.length} read · ${count('candidate')} to review · ${count('live')} live · ${count('rejected')} rejected · ` +
    `${list.filter((c) => c.low).length} low confidence · ${state.job.selected.size} selected`;
}

async function saveCandidate(c, row) {
  const changes = {};
  for (const [field, type] of FIELDS) {
    const value = row.querySelector(`input[name=${field}]`).value.trim();
    const typed = type === 'number' ? Number(value) : value;
    if (typed !== c[field]) changes[field] = typed;
  }
  if (Object.keys(changes).length === 0) return;
  try {
    Object.assign(c, await api('PUT', `/api/admin/candidates/${c.id}`, changes));
    row.classList.add('saved');
    $('job-status').textContent = `Saved ${c.product}.`;
  } catch (error) {
    $('job-status').textContent = `Not saved: ${error.message}`;
  }
}

async function rejectCandidate(c) {
  try {
    await api('DELETE', `/api/admin/candidates/${c.id}`);
    c.status = 'rejected';
    state.job.selected.delete(c.id);
    refreshMarks(c);
    updateCounts();
    $('job-status').textContent = `Rejected ${c.product}.`;
  } catch (error) {
    $('job-status').textContent = error.message;
  }
}

async function promote(body, promoted) {
  try {
    const result = await api('POST', `/api/admin/stores/${state.job.storeId}/promotions/promote`, body);
    for (const c of promoted) {
      c.status = 'live';
      state.job.selected.delete(c.id);
      refreshMarks(c);
    }
    updateCounts();
    $('job-status').textContent = `Promoted ${result.promoted}.`;
  } catch (error) {
    $('job-status').textContent = error.message;
  }
}

$('promote-selected').addEventListener('click', () => {
  const ids = [...state.job.selected];
  if (ids.length === 0) return void ($('job-status').textContent = 'Select candidates first (a).');
  promote(
    { candidate_ids: ids },
    state.job.candidates.filter((c) => state.job.selected.has(c.id)),
  );
});

$('promote-job').addEventListener('click', () =>
  promote(
    { job_id: state.job.jobId },
    state.job.candidates.filter((c) => c.status === 'candidate' && !c.low),
  ),
);

document.addEventListener('keydown', (event) => {
  if ($('job-view').hidden || !state.job || event.ctrlKey || event.metaKey || event.altKey) return;
  if (event.target instanceof HTMLInputElement && event.target.type !== 'checkbox') return;
  const c = state.job.candidates[state.job.current];
  const keys = {
    j: () => focusCandidate(state.job.current + 1),
    ArrowDown: () => focusCandidate(state.job.current + 1),
    k: () => focusCandidate(state.job.current - 1),
    ArrowUp: () => focusCandidate(state.job.current - 1),
    a: () => c && toggleSelected(c, !state.job.selected.has(c.id)),
    r: () => c && rejectCandidate(c),
    e: () => c && rowOf(c)?.querySelector('input[name=product]')?.focus(),
    p: () => $('promote-selected').click(),
  };
  const action = keys[event.key];
  if (!action) return;
  event.preventDefault();
  action();
});

// ---- Routing --------------------------------------------------------------------------------

async function route() {
  stopPolling();
  if (!state.token) return showLogin();
  const parts = location.hash.replace(/^#\/?/, '').split('/').filter(Boolean);
  try {
    if (parts[0] === 'stores' && parts[2] === 'jobs' && parts[3]) return await renderJob(parts[1], parts[3]);
    if (parts[0] === 'stores' && parts[1]) return await renderStore(parts[1]);
    return await renderHome();
  } catch (error) {
    if (error.message !== 'Signed out') alert(error.message);
  }
}

async function start() {
  const me = await api('GET', '/api/me').catch(() => null);
  if (!me) return showLogin();
  // Admin rights are the server's to tell: an admin route answers 403 to anyone else.
  const admin = await api('GET', '/api/admin/spend?days=1&limit=1').then(
    () => true,
    () => false,
  );
  if (!admin) {
    await api('POST', '/api/auth/logout').catch(() => undefined);
    showLogin();
    $('login-error').textContent = 'This account has no admin rights.';
    return;
  }
  $('who').textContent = me.email;
  await route();
}

window.addEventListener('hashchange', route);
(async () => {
  // A reload keeps the session through the refresh cookie; the token itself was only in memory.
  if (await refreshToken()) await start();
  else showLogin();
})();
