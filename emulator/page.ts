/// <reference lib="dom" />
/**
 * The emulator's page (`GET /` of the emulator): one HTML document, its style and script inline, no other
 * asset (its Content-Security-Policy allows none). It asks for a token (an account's root token, or the
 * emulator's, which may look at every account), keeps it for the browser tab only (sessionStorage), and shows
 * the account from `GET /__emulator/overview` once a second: its resources by type with their status and ids, a
 * page of 500 at a time (Previous and Next ask the overview for another of the API's pages), its last events and
 * requests (when each arrived, how long it took, its bodies as the log keeps them: secrets redacted), the faults
 * and rate limit in force. Every value is written as text, never as markup. At a phone's width (390 px) nothing
 * overflows the page: a table too wide scrolls in its own box. The script is `client` below, compiled with the
 * emulator and sent as its source.
 */

/** The page's script (runs in the browser: it uses nothing outside itself). */
function client(): void {
  const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
  const KEY = "compute-emulator-token";
  let timer: number | undefined;
  let paused = false;
  let chosen: string | null = null;
  /** The page shown of each type (by its key: `instances`, `images`, ...), 1 when not set. */
  let pages: Record<string, number> = {};

  const cell = (row: HTMLTableRowElement, value: unknown) => {
    row.insertCell().textContent = value === null || value === undefined ? "" : String(value);
  };
  /** A body as the log keeps it, folded: its first line shown, the whole on opening. */
  const folded = (name: string, text: string | undefined) => {
    if (text === undefined) return document.createTextNode("");
    const d = document.createElement("details");
    const summary = document.createElement("summary");
    summary.textContent = name;
    const pre = document.createElement("pre");
    pre.textContent = text;
    d.append(summary, pre);
    return d;
  };
  /** A table in a box of its own, which scrolls sideways when the table is wider than the page. */
  const boxed = (t: HTMLTableElement) => {
    const box = document.createElement("div");
    box.className = "scroll";
    box.appendChild(t);
    return box;
  };
  const table = (caption: string, headers: string[], rows: unknown[][], count = rows.length) => {
    const t = document.createElement("table");
    t.createCaption().textContent = `${caption} (${count})`;
    const head = t.createTHead().insertRow();
    for (const h of headers) {
      const th = document.createElement("th");
      th.scope = "col";
      th.textContent = h;
      head.appendChild(th);
    }
    const body = t.createTBody();
    for (const r of rows) {
      const tr = body.insertRow();
      for (const v of r) cell(tr, v);
    }
    if (rows.length === 0) {
      const tr = body.insertRow();
      const td = tr.insertCell();
      td.colSpan = headers.length;
      td.className = "empty";
      td.textContent = "none";
    }
    return t;
  };
  const say = (message: string) => {
    $("status").textContent = message;
  };

  interface Data {
    account: { id: number; label: string };
    accounts?: Array<{ id: number; label: string }>;
    speed: number;
    resources: Array<{
      type: string;
      key?: string;
      page: number;
      pages: number;
      results: number;
      of?: string;
      rows: Array<{ id: number | string; label: string; status: string; detail: string }>;
    }>;
    events: Array<{ id: number; created: string; action: string; status: string; percent: number | null; entity: string }>;
    requests: Array<{ method: string; path: string; status: number; fault?: string; time?: string; ms?: number; request?: string; response?: string }>;
    faults: { config: unknown; counts: Record<string, number> };
    rateLimit: { perSecond: number | null; limited: number };
  }

  /** Previous and Next through a type's pages (each button keeps its id, so the focus stays on it across updates). */
  const pager = (key: string, type: string, page: number, count: number) => {
    const nav = document.createElement("nav");
    nav.className = "pager";
    nav.setAttribute("aria-label", `${type}: pages`);
    const go = (to: number, label: string, id: string) => {
      const b = document.createElement("button");
      b.type = "button";
      b.id = id;
      b.textContent = label;
      b.disabled = to < 1 || to > count;
      b.addEventListener("click", () => {
        pages[key] = to;
        void load();
      });
      return b;
    };
    const where = document.createElement("span");
    where.id = `page-${key}`;
    where.textContent = `Page ${page} of ${count}`;
    nav.append(go(page - 1, "Previous", `previous-${key}`), where, go(page + 1, "Next", `next-${key}`));
    return nav;
  };

  const render = (data: Data) => {
    const had = document.activeElement?.id;
    $("account").textContent = `${data.account.label} (account ${data.account.id})`;
    $("speed").textContent = String(data.speed);
    const picker = $<HTMLSelectElement>("accounts");
    if (data.accounts && data.accounts.length > 1) {
      $("choose").hidden = false;
      const want = data.accounts.map((a) => `${a.id}:${a.label}`).join("|");
      if (picker.dataset.list !== want) {
        picker.replaceChildren(...data.accounts.map((a) => new Option(`${a.label} (${a.id})`, String(a.id))));
        picker.dataset.list = want;
      }
      picker.value = String(data.account.id);
    }
    for (const r of data.resources) {
      // A page past the last (records deleted meanwhile): the last page.
      if (r.key && r.page > r.pages) pages[r.key] = r.pages;
    }
    $("resources").replaceChildren(
      ...data.resources.map((r) => {
        const part = document.createElement("div");
        part.className = "part";
        const t = table(
          r.type,
          ["ID", "Label", "Status", "Detail"],
          r.rows.map((x) => [x.id, x.label, x.status, x.detail]),
          r.results,
        );
        part.appendChild(boxed(t));
        if (r.of) {
          const of = document.createElement("p");
          of.className = "of";
          of.textContent = `Of ${r.of}.`;
          part.appendChild(of);
        }
        if (r.key && r.pages > 1) part.appendChild(pager(r.key, r.type, r.page, r.pages));
        return part;
      }),
    );
    $("events").replaceChildren(
      boxed(
        table(
          "Events",
          ["ID", "Created", "Action", "Entity", "Status", "%"],
          data.events.map((e) => [e.id, e.created, e.action, e.entity, e.status, e.percent]),
        ),
      ),
    );
    const requests = table(
      "Requests",
      ["Time", "Method", "Path", "Status", "ms", "Fault", "Bodies"],
      data.requests.map((q) => [q.time ? q.time.slice(11, 23) : "", q.method, q.path, q.status === 0 ? "no answer" : q.status, q.ms, q.fault ?? "", ""]),
    );
    data.requests.forEach((q, i) => {
      const row = requests.tBodies[0].rows[i];
      if (q.time) row.cells[0].title = q.time;
      row.cells[6].replaceChildren(folded("request", q.request), folded("answer", q.response));
    });
    $("requests").replaceChildren(boxed(requests));
    $("faults").textContent = data.faults.config ? JSON.stringify(data.faults.config) : "none";
    $("fault-counts").textContent = Object.keys(data.faults.counts).length ? JSON.stringify(data.faults.counts) : "none yet";
    $("rate").textContent = data.rateLimit.perSecond === null ? "none" : `${data.rateLimit.perSecond} requests a second (${data.rateLimit.limited} refused)`;
    // The focus on a control the update made again stays on it (on a page's Next; on Previous once Next is the last).
    if (had && document.activeElement === document.body) {
      const again = document.getElementById(had);
      const other = /^(next|previous)-/.test(had)
        ? document.getElementById(had.replace(/^(next|previous)/, (w) => (w === "next" ? "previous" : "next")))
        : null;
      const usable = (el: HTMLElement | null) => (el && !(el instanceof HTMLButtonElement && el.disabled) ? el : null);
      (usable(again) ?? usable(other))?.focus();
    }
  };

  const load = async () => {
    const token = sessionStorage.getItem(KEY);
    if (!token) return;
    const query = new URLSearchParams(Object.entries(pages).map(([k, v]) => [k, String(v)])).toString();
    const path = `${chosen ? `/__emulator/accounts/${chosen}/overview` : "/__emulator/overview"}${query ? `?${query}` : ""}`;
    try {
      const res = await fetch(path, { headers: { Authorization: `Bearer ${token}` } });
      const body = (await res.json()) as Data & { errors?: Array<{ reason: string }> };
      if (!res.ok) {
        say(`The emulator refused the token (${res.status}): ${body.errors?.[0]?.reason ?? ""}`);
        if (res.status === 401 || res.status === 403) signOut(false);
        return;
      }
      render(body);
      say(`Updated ${new Date().toLocaleTimeString()}`);
    } catch (err) {
      say(`The emulator did not answer: ${String(err)}`);
    }
  };
  const schedule = () => {
    window.clearInterval(timer);
    if (!paused) timer = window.setInterval(() => void load(), 1000);
  };
  const signIn = (token: string) => {
    sessionStorage.setItem(KEY, token);
    $("sign-in").hidden = true;
    $("view").hidden = false;
    void load();
    schedule();
    $("pause").focus();
  };
  const signOut = (clear = true) => {
    if (clear) say("Signed out");
    sessionStorage.removeItem(KEY);
    window.clearInterval(timer);
    $("view").hidden = true;
    $("sign-in").hidden = false;
    $<HTMLInputElement>("token").focus();
  };

  $<HTMLFormElement>("sign-in").addEventListener("submit", (e) => {
    e.preventDefault();
    const value = $<HTMLInputElement>("token").value.trim();
    if (value) signIn(value);
  });
  $("pause").addEventListener("click", () => {
    paused = !paused;
    $("pause").textContent = paused ? "Resume updates" : "Pause updates";
    $("pause").setAttribute("aria-pressed", String(paused));
    schedule();
  });
  $("refresh").addEventListener("click", () => void load());
  $("sign-out").addEventListener("click", () => signOut());
  $<HTMLSelectElement>("accounts").addEventListener("change", (e) => {
    chosen = (e.target as HTMLSelectElement).value;
    pages = {};
    void load();
  });
  const kept = sessionStorage.getItem(KEY);
  if (kept) signIn(kept);
  else $<HTMLInputElement>("token").focus();
}

const STYLE = `
  :root { color-scheme: light dark; font-family: system-ui, sans-serif; }
  body { margin: 0 auto; max-width: 72rem; padding: 1rem; line-height: 1.4; }
  p, dd { overflow-wrap: anywhere; }
  header { display: flex; flex-wrap: wrap; gap: .5rem 1.5rem; align-items: baseline; }
  h1 { font-size: 1.3rem; margin: 0; }
  h2 { font-size: 1.1rem; margin: 1.5rem 0 .5rem; }
  .scroll { overflow-x: auto; max-width: 100%; }
  table { border-collapse: collapse; width: 100%; margin: .5rem 0 1rem; font-size: .9rem; }
  caption { text-align: left; font-weight: 600; padding: .25rem 0; }
  th, td { border-bottom: 1px solid #8884; padding: .2rem .5rem; text-align: left; vertical-align: top; }
  th { white-space: nowrap; }
  #requests td:nth-child(3) { overflow-wrap: anywhere; min-width: 16rem; }
  #requests td:nth-child(7) { min-width: 12rem; }
  td.empty { color: #888; font-style: italic; }
  .part { margin-bottom: 1rem; }
  .part table { margin-bottom: .25rem; }
  .of { margin: 0 0 .25rem; color: #666; font-size: .9rem; }
  .pager { display: flex; flex-wrap: wrap; gap: .5rem; align-items: baseline; }
  details { margin: 0 0 .25rem; }
  summary { cursor: pointer; }
  pre { margin: .25rem 0; white-space: pre-wrap; overflow-wrap: anywhere; font-size: .8rem; max-width: 40rem; }
  button, input, select { font: inherit; padding: .3rem .6rem; }
  :focus-visible { outline: 3px solid #2563eb; outline-offset: 2px; }
  .skip { position: absolute; left: -999px; }
  .skip:focus { left: 1rem; top: 1rem; background: Canvas; padding: .5rem; }
  dl { display: grid; grid-template-columns: max-content minmax(0, 1fr); gap: .25rem 1rem; }
  dd { margin: 0; }
  @media (max-width: 30rem) {
    body { padding: .5rem; }
    dl { grid-template-columns: minmax(0, 1fr); }
    dd { margin-left: 1rem; }
  }
  dt { font-weight: 600; }
  #status { color: #666; }
`;

/** The page, its script the compiled `client`. */
export const PAGE_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>compute emulator</title>
<style>${STYLE}</style>
</head>
<body>
<a class="skip" href="#resources-heading">Skip to resources</a>
<header>
  <h1>compute emulator</h1>
  <p id="status" role="status" aria-live="polite"></p>
</header>
<form id="sign-in" aria-labelledby="sign-in-heading">
  <h2 id="sign-in-heading">Sign in</h2>
  <p>The page needs an account's root token: the emulator's <code>--token</code>, or the token
  <code>POST /__emulator/accounts</code> answered. It is kept in this browser tab only.</p>
  <label for="token">Root token</label>
  <input id="token" name="token" type="password" autocomplete="off" required>
  <button type="submit">Show the account</button>
</form>
<main id="view" hidden>
  <p>Account <strong id="account"></strong>, speed <span id="speed"></span>.
    <span id="choose" hidden><label for="accounts">Show account</label> <select id="accounts"></select></span>
    <button id="pause" type="button" aria-pressed="false">Pause updates</button>
    <button id="refresh" type="button">Update now</button>
    <button id="sign-out" type="button">Sign out</button></p>
  <section aria-labelledby="resources-heading">
    <h2 id="resources-heading" tabindex="-1">Resources</h2>
    <div id="resources"></div>
  </section>
  <section aria-labelledby="events-heading">
    <h2 id="events-heading">Recent events</h2>
    <div id="events"></div>
  </section>
  <section aria-labelledby="requests-heading">
    <h2 id="requests-heading">Recent requests</h2>
    <div id="requests"></div>
  </section>
  <section aria-labelledby="faults-heading">
    <h2 id="faults-heading">Faults and rate limit</h2>
    <dl>
      <dt>Faults in force</dt><dd id="faults"></dd>
      <dt>Faults injected</dt><dd id="fault-counts"></dd>
      <dt>Rate limit</dt><dd id="rate"></dd>
    </dl>
  </section>
</main>
<script>(${client.toString()})();</script>
</body>
</html>
`;

/** No asset from anywhere: the inline style and script only, and requests to the emulator itself. */
export const PAGE_HEADERS = {
  "Content-Type": "text/html; charset=utf-8",
  "Content-Security-Policy":
    "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; connect-src 'self'; img-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  "Cache-Control": "no-store",
  "X-Content-Type-Options": "nosniff",
};
