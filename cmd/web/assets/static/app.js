// Live updates: the server says "change" over Server-Sent Events when a
// task or a run changed; the page reads its main part again, without a
// reload. A form being written in is never replaced under the writer.
"use strict";
(function () {
  const main = document.getElementById("live");
  const conn = document.getElementById("conn");
  const banner = document.getElementById("changed");
  let dirty = false, busy = false, again = false;

  // Times read relative ("5m ago", from the server's clock); the exact
  // local time is their title.
  function localTimes(root) {
    for (const t of root.querySelectorAll("time[datetime]")) {
      const d = new Date(t.getAttribute("datetime"));
      if (!isNaN(d)) t.title = d.toLocaleString();
    }
  }

  function bind(root) {
    localTimes(root);
    for (const f of root.querySelectorAll("form.answer")) {
      f.addEventListener("input", () => { dirty = true; });
      if (f.dataset.kept !== undefined) dirty = true; // a refused answer, typed already
      f.addEventListener("submit", () => { dirty = false; });
    }
    // A template fills the answer's text box, to send as it is or edit.
    for (const s of root.querySelectorAll("select[data-template]")) {
      s.addEventListener("change", () => {
        const box = s.form.querySelector("textarea");
        if (box && s.value) { box.value = s.value; dirty = true; }
      });
    }
    // Words typed in Other's own box pick Other; the comment box never does.
    for (const f of root.querySelectorAll("fieldset.question")) {
      const other = f.querySelector("input[data-other]");
      const words = f.querySelector("input[name^='other.']");
      if (other && words) words.addEventListener("input", () => { if (words.value.trim()) other.checked = true; });
    }
    review(root);
    selected = null;
  }

  // Reviewing a change: a file opened counts as the change seen (no
  // question before approving); a file marked viewed stays folded, in this
  // browser; a click on a line writes a comment on it, sent with the
  // answer (the lc fields) and listed under its file.
  function review(root) {
    const form = root.querySelector("form.answer");
    const seen = form && form.querySelector("input[name=reviewed]");
    for (const d of root.querySelectorAll("details.file")) {
      const box = d.previousElementSibling.querySelector("input[data-viewed]");
      const key = "bh-viewed " + location.pathname + " " + d.dataset.path;
      if (localStorage.getItem(key)) { box.checked = true; d.open = false; }
      box.addEventListener("change", () => {
        if (box.checked) { localStorage.setItem(key, "1"); d.open = false; } else localStorage.removeItem(key);
        if (seen) seen.value = "1";
      });
      d.addEventListener("toggle", () => {
        if (d.open && seen) seen.value = "1";
        if (d.open) fetchFile(d);
      });
    }
    const sec = root.querySelector("section[data-review]");
    if (!sec || !form) return;
    const qid = sec.dataset.review;
    for (const i of form.querySelectorAll("input[name^='lc.']")) listComment(sec, i);
    const edit = line => editComment(line.closest("details.file"), +line.dataset.line, qid, form, sec);
    sec.addEventListener("click", e => {
      const line = e.target.closest("pre.diff span[data-line]");
      if (line) edit(line);
    });
    // By keyboard: in a file's diff, the arrow keys move along its lines
    // and Enter comments on the one focused.
    sec.addEventListener("keydown", e => {
      const pre = e.target.closest("pre.diff");
      if (!pre || !["ArrowDown", "ArrowUp", "Enter"].includes(e.key)) return;
      const lines = [...pre.querySelectorAll("span[data-line]")];
      const i = lines.indexOf(e.target);
      if (e.key === "Enter" && i >= 0) edit(e.target);
      else if (e.key === "ArrowDown" || e.key === "Enter") lines[Math.min(i + 1, lines.length - 1)]?.focus();
      else lines[Math.max(i - 1, 0)]?.focus();
      e.preventDefault();
    });
  }

  // A big file is folded with none of its lines on the page: opened, its
  // diff is fetched (once) and put in place of the note that says so.
  function fetchFile(d) {
    const note = d.querySelector("p.fetch");
    if (!d.dataset.src || !note || note.dataset.busy) return;
    note.dataset.busy = "1";
    note.textContent = "Reading the file’s diff…";
    fetch(d.dataset.src, { credentials: "same-origin", cache: "no-store" })
      .then(r => r.ok ? r.text() : Promise.reject(new Error(r.status + " " + r.statusText)))
      .then(html => { note.insertAdjacentHTML("afterend", html); note.remove(); })
      .catch(err => { note.textContent = "Could not read the file’s diff: " + err.message; delete note.dataset.busy; });
  }

  function editComment(d, line, qid, form, sec) {
    d.querySelector(".lc-edit")?.remove();
    const ed = document.createElement("div");
    ed.className = "lc-edit";
    ed.innerHTML = '<label class="field"><span></span><textarea rows="2"></textarea></label><button type="button">Add the comment</button>';
    ed.querySelector("span").textContent = `Comment on line ${line} of ${d.dataset.path}`;
    ed.querySelector("button").addEventListener("click", () => {
      const text = ed.querySelector("textarea").value.trim();
      if (!text) return;
      const i = document.createElement("input");
      i.type = "hidden"; i.name = "lc." + qid;
      i.value = JSON.stringify({ path: d.dataset.path, line, text });
      form.append(i);
      listComment(sec, i);
      ed.remove();
      dirty = true;
    });
    d.append(ed);
    ed.querySelector("textarea").focus();
  }

  function listComment(sec, input) {
    const c = JSON.parse(input.value);
    const d = [...sec.querySelectorAll("details.file")].find(d => d.dataset.path === c.path);
    if (!d) return;
    const li = document.createElement("li");
    li.textContent = `line ${c.line}: ${c.text} `;
    const del = document.createElement("button");
    del.type = "button"; del.textContent = "Remove";
    del.addEventListener("click", () => { input.remove(); li.remove(); });
    li.append(del);
    d.querySelector("ul.lcs").append(li);
  }

  // The inbox by keyboard: j and k move between cards, Enter opens one,
  // a and r approve or reject where the card can.
  let selected = null;
  function select(card) {
    if (selected) selected.classList.remove("selected");
    selected = card;
    if (card) { card.classList.add("selected"); card.scrollIntoView({ block: "nearest" }); }
  }
  document.addEventListener("keydown", e => {
    if (e.ctrlKey || e.metaKey || e.altKey || e.target.closest("input, textarea, select")) return;
    const cards = [...main.querySelectorAll("li.card")];
    if (!cards.length) return;
    const i = cards.indexOf(selected);
    if (e.key === "j") select(cards[Math.min(i + 1, cards.length - 1)]);
    else if (e.key === "k") select(cards[Math.max(i - 1, 0)]);
    else if (e.key === "Enter" && selected && e.target === document.body) selected.querySelector("a.title").click();
    else if ((e.key === "a" || e.key === "r") && selected) {
      const b = selected.querySelector(`button[data-key="${e.key}"]`);
      if (b) b.click();
    } else return;
    e.preventDefault();
  });

  async function refresh() {
    if (dirty) { banner.hidden = false; return; }
    if (busy) { again = true; return; }
    busy = true;
    try {
      const before = new Set([...main.querySelectorAll("[data-question]")].map(e => e.dataset.question));
      const u = new URL(location.href);
      u.searchParams.set("part", "main");
      const r = await fetch(u, { credentials: "same-origin", cache: "no-store" });
      const version = r.headers.get("X-Bh-Version");
      if ((r.ok || r.status === 404) && version !== main.dataset.version) {
        main.dataset.version = version;
        const html = await r.text();
        // Long files opened stay open (fetched again) across the refresh:
        // those open now, a click made while the page was read included.
        const opened = new Set([...main.querySelectorAll("details.file[data-src]")].filter(d => d.open).map(d => d.dataset.path));
        main.innerHTML = html;
        bind(main);
        for (const d of main.querySelectorAll("details.file[data-src]")) if (opened.has(d.dataset.path)) d.open = true;
        for (const e of main.querySelectorAll("[data-question]")) {
          if (!before.has(e.dataset.question)) e.classList.add("fresh");
        }
      }
    } finally {
      busy = false;
      if (again) { again = false; refresh(); }
    }
  }

  // A refused answer is shown at .../answer: the address of the task's
  // page again, so that reloading reads the page rather than posting anew.
  if (location.pathname.endsWith("/answer")) {
    history.replaceState(null, "", location.pathname.slice(0, -"/answer".length));
  }
  bind(document);
  if (!conn) return; // an answer link's page: no live updates without the token
  const es = new EventSource("/events");
  // Changes may have been missed before the stream was ready: between the
  // page's render and the first connection (an undo window ending), or
  // while reconnecting. The version says whether anything did change; a
  // kept answer is not flagged for a change that may not be.
  let first = true;
  es.addEventListener("ready", () => { conn.classList.add("on"); if (!first || !dirty) refresh(); first = false; });
  es.addEventListener("change", refresh);
  es.onerror = () => conn.classList.remove("on");
})();
