// Live updates: the server says "change" over Server-Sent Events when a
// task or a run changed; the page reads its main part again, without a
// reload. A form being written in is never replaced under the writer.
"use strict";
(function () {
  const main = document.getElementById("live");
  const conn = document.getElementById("conn");
  const banner = document.getElementById("changed");
  let dirty = false, busy = false, again = false;

  function localTimes(root) {
    for (const t of root.querySelectorAll("time[datetime]")) {
      const d = new Date(t.getAttribute("datetime"));
      if (!isNaN(d)) { t.title = t.textContent; t.textContent = d.toLocaleString(); }
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
    for (const f of root.querySelectorAll("form.answer")) {
      const other = f.querySelector("input[data-other]");
      const words = f.querySelector("input[name=other]");
      if (other && words) words.addEventListener("input", () => { if (words.value.trim()) other.checked = true; });
    }
  }

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
        main.innerHTML = await r.text();
        bind(main);
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
  const es = new EventSource("/events");
  let first = true; // after a reconnection, changes may have been missed
  es.addEventListener("ready", () => { conn.classList.add("on"); if (!first) refresh(); first = false; });
  es.addEventListener("change", refresh);
  es.onerror = () => conn.classList.remove("on");
})();
