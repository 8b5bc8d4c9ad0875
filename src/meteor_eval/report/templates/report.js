/* meteor-eval report: the segment table (sort, filter, pages) and each segment's alignment,
   built in the browser from the JSON model embedded once in the page. No network access. */
(function () {
  "use strict";
  var DATA = JSON.parse(document.getElementById("report-data").textContent);
  var S = DATA.systems, N = DATA.n, MODULES = DATA.modules;
  var TWO = S.length > 1;
  var PER_SYSTEM = [
    ["score", "score", 4], ["precision", "P", 4], ["recall", "R", 4], ["fmean", "Fmean", 4],
    ["fragmentation", "frag", 4], ["penalty", "penalty", 4], ["chunks", "chunks", 0],
    ["hyp_length", "hyp len", 0]
  ];
  var DEFAULTS = { sort: "seg", dir: "asc", page: 1, size: 50, q: "", a: 0, b: TWO ? 1 : 0,
                   smin: "", smax: "", dmin: "", dmax: "", lmin: "", lmax: "", seg: "" };
  var state = Object.assign({}, DEFAULTS);
  var filtered = [];

  function esc(text) {
    return String(text).replace(/[&<>"]/g, function (c) {
      return { "&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;" }[c];
    });
  }
  function refTokens(k, i) {
    var refs = DATA.references[i] || [];
    return refs[S[k].reference[i]] || [];
  }
  function firstRef(i) {
    var refs = DATA.references[i] || [];
    for (var j = 0; j < refs.length; j++) { if (refs[j]) { return refs[j]; } }
    return [];
  }

  /* Search text of each segment: every hypothesis and the kept references, lower-cased. */
  var TEXT = new Array(N);
  for (var i = 0; i < N; i++) {
    var parts = [];
    (DATA.references[i] || []).forEach(function (r) { if (r) { parts.push(r.join(" ")); } });
    S.forEach(function (s) { parts.push(s.hypothesis[i].join(" ")); });
    TEXT[i] = parts.join("\n").toLowerCase();
  }

  /* Columns: key -> {label, value(i), digits, group}. */
  var COLUMNS = [{ key: "seg", label: "#", value: function (i) { return i + 1; }, digits: 0 },
                 { key: "ref_length", label: "ref len", value: function (i) { return S[0].ref_length[i]; }, digits: 0 }];
  S.forEach(function (s, k) {
    PER_SYSTEM.forEach(function (f, j) {
      COLUMNS.push({ key: f[0] + "." + k, label: f[1], digits: f[2], system: k, first: j === 0,
                     value: function (i) { return s[f[0]][i]; } });
    });
  });
  if (TWO) {
    COLUMNS.push({ key: "diff", label: "Δ score", digits: 4, first: true, diff: true,
                   value: function (i) { return S[state.b].score[i] - S[state.a].score[i]; } });
  }
  var BY_KEY = {};
  COLUMNS.forEach(function (c) { BY_KEY[c.key] = c; });

  function num(text) { return text === "" || text === null || isNaN(+text) ? null : +text; }

  function applyFilters() {
    var q = state.q.toLowerCase().trim(), a = S[state.a], b = S[state.b];
    var smin = num(state.smin), smax = num(state.smax), dmin = num(state.dmin), dmax = num(state.dmax);
    var lmin = num(state.lmin), lmax = num(state.lmax);
    var out = [];
    for (var i = 0; i < N; i++) {
      var s = a.score[i], d = b.score[i] - s, len = a.ref_length[i];
      if (smin !== null && s < smin) { continue; }
      if (smax !== null && s > smax) { continue; }
      if (TWO && dmin !== null && d < dmin) { continue; }
      if (TWO && dmax !== null && d > dmax) { continue; }
      if (lmin !== null && len < lmin) { continue; }
      if (lmax !== null && len > lmax) { continue; }
      if (q && TEXT[i].indexOf(q) < 0) { continue; }
      out.push(i);
    }
    var column = BY_KEY[state.sort] || BY_KEY.seg, sign = state.dir === "desc" ? -1 : 1;
    var keys = new Float64Array(N);
    out.forEach(function (i) { keys[i] = column.value(i); });
    out.sort(function (x, y) { return (keys[x] - keys[y]) * sign || x - y; });
    filtered = out;
  }

  function pages() { return Math.max(1, Math.ceil(filtered.length / state.size)); }

  function fmt(value, digits) { return digits ? value.toFixed(digits) : String(value); }

  function renderHead() {
    var top = "<tr><th class=\"group\" colspan=\"2\"></th>";
    S.forEach(function (s) { top += "<th class=\"group\" colspan=\"" + PER_SYSTEM.length + "\">" + esc(s.name) + "</th>"; });
    if (TWO) { top += "<th class=\"group\"></th>"; }
    top += "<th class=\"group\"></th></tr><tr>";
    COLUMNS.forEach(function (c) {
      var cls = "num" + (state.sort === c.key ? " sorted-" + state.dir : "");
      top += "<th class=\"" + cls + "\" data-key=\"" + c.key + "\" title=\"sort by " + esc(c.label) + "\">" + esc(c.label) + "</th>";
    });
    top += "<th>reference</th></tr>";
    document.querySelector("#segment-table thead").innerHTML = top;
  }

  function renderBody() {
    var start = (state.page - 1) * state.size, rows = filtered.slice(start, start + state.size);
    var html = [];
    rows.forEach(function (i) {
      var cells = "<tr tabindex=\"0\" data-seg=\"" + i + "\"" + (String(i + 1) === String(state.seg) ? " class=\"selected\"" : "") + ">";
      COLUMNS.forEach(function (c) {
        var v = c.value(i), cls = "num" + (c.first ? " first" : "");
        if (c.diff) { cls += v > 0 ? " pos" : v < 0 ? " neg" : ""; }
        cells += "<td class=\"" + cls + "\">" + fmt(v, c.digits) + "</td>";
      });
      cells += "<td class=\"text\">" + esc(firstRef(i).join(" ")) + "</td></tr>";
      html.push(cells);
    });
    document.querySelector("#segment-table tbody").innerHTML = html.join("");
    document.getElementById("page-info").textContent = "page " + state.page + " of " + pages() +
      " (" + filtered.length + " of " + N + " segments)";
  }

  /* -- the address keeps the view ---------------------------------------------------------- */
  function readHash() {
    var params = new URLSearchParams(location.hash.replace(/^#/, ""));
    state = Object.assign({}, DEFAULTS);
    Object.keys(DEFAULTS).forEach(function (key) {
      if (params.has(key)) { state[key] = params.get(key); }
    });
    state.page = Math.max(1, parseInt(state.page, 10) || 1);
    state.size = Math.max(1, parseInt(state.size, 10) || DEFAULTS.size);
    state.a = Math.min(S.length - 1, Math.max(0, parseInt(state.a, 10) || 0));
    state.b = Math.min(S.length - 1, Math.max(0, parseInt(state.b, 10) || 0));
    if (!params.has("b")) { state.b = DEFAULTS.b; }
    if (state.dir !== "desc") { state.dir = "asc"; }
    if (!BY_KEY[state.sort]) { state.sort = "seg"; }
  }
  function writeHash() {
    var params = new URLSearchParams();
    Object.keys(DEFAULTS).forEach(function (key) {
      if (String(state[key]) !== String(DEFAULTS[key])) { params.set(key, state[key]); }
    });
    var text = params.toString();
    history.replaceState(null, "", text ? "#" + text : location.pathname + location.search);
  }
  function syncForm() {
    var form = document.getElementById("filters");
    ["q", "smin", "smax", "dmin", "dmax", "lmin", "lmax", "size", "a", "b"].forEach(function (name) {
      var field = form.elements[name];
      if (!field) { return; }
      if (field.tagName === "SELECT" && !Array.prototype.some.call(field.options, function (o) {
        return o.value === String(state[name]);
      })) {
        field.add(new Option(String(state[name])));  /* e.g. #size=10 from the address */
      }
      field.value = state[name];
    });
    document.querySelectorAll(".sys-a").forEach(function (e) { e.textContent = S[state.a].name; });
    document.querySelectorAll(".sys-b").forEach(function (e) { e.textContent = S[state.b].name; });
  }

  function render() {
    applyFilters();
    state.page = Math.min(state.page, pages());
    renderHead();
    renderBody();
    renderDetail();
  }
  function update(changes) {
    Object.assign(state, changes);
    writeHash();
    render();
  }

  /* -- one segment: sentences with the aligned words, and the alignment matrix ------------- */
  function matchesOf(k, i) {
    var flat = S[k].matches[i], out = [];
    for (var j = 0; j + 4 < flat.length; j += 5) {
      out.push({ h: flat[j], hl: flat[j + 1], r: flat[j + 2], rl: flat[j + 3], stage: flat[j + 4] });
    }
    return out;
  }
  function sentence(label, tokens, side, matches) {
    var owner = new Array(tokens.length).fill(-1);
    matches.forEach(function (m, n) {
      var start = side === "h" ? m.h : m.r, len = side === "h" ? m.hl : m.rl;
      for (var t = start; t < start + len; t++) { owner[t] = n; }
    });
    var html = "<div class=\"sentence\"><span class=\"label\">" + label + "</span>";
    tokens.forEach(function (tok, t) {
      var n = owner[t];
      html += n < 0 ? "<span class=\"tok\">" + esc(tok) + "</span> "
        : "<span class=\"tok m" + matches[n].stage + "\" data-m=\"" + n + "\" title=\"" +
          esc(MODULES[matches[n].stage] || "") + "\">" + esc(tok) + "</span> ";
    });
    return html + "</div>";
  }
  function matrix(hyp, ref, matches) {
    if (!hyp.length || !ref.length) { return "<p class=\"empty\">empty segment: no matrix</p>"; }
    var cell = [];
    for (var h = 0; h < hyp.length; h++) { cell.push(new Array(ref.length).fill(-1)); }
    matches.forEach(function (m, n) {
      for (var a = m.h; a < m.h + m.hl; a++) {
        for (var b = m.r; b < m.r + m.rl; b++) { cell[a][b] = n; }
      }
    });
    var html = "<table class=\"matrix\"><thead><tr><th></th>";
    ref.forEach(function (tok, r) { html += "<th data-r=\"" + r + "\">" + esc(tok) + "</th>"; });
    html += "</tr></thead><tbody>";
    hyp.forEach(function (tok, h) {
      html += "<tr><th data-h=\"" + h + "\">" + esc(tok) + "</th>";
      cell[h].forEach(function (n) {
        html += n < 0 ? "<td></td>" : "<td class=\"m" + matches[n].stage + "\" data-m=\"" + n +
          "\" title=\"" + esc(MODULES[matches[n].stage] || "") + "\"></td>";
      });
      html += "</tr>";
    });
    return html + "</tbody></table>";
  }
  function panel(k, i) {
    var s = S[k], matches = matchesOf(k, i), hyp = s.hypothesis[i], ref = refTokens(k, i);
    var counts = MODULES.map(function () { return 0; });
    matches.forEach(function (m) { counts[m.stage] += m.rl; });
    var numbers = PER_SYSTEM.map(function (f) { return f[1] + " " + fmt(s[f[0]][i], f[2]); }).join(", ") +
      ", ref len " + s.ref_length[i] + "; matched reference words: " +
      MODULES.map(function (m, j) { return m + " " + counts[j]; }).join(", ") +
      ((DATA.references[i] || []).length > 1 ? "; reference " + (s.reference[i] + 1) + " of " + DATA.references[i].length + " kept" : "");
    return "<div class=\"panel\" data-system=\"" + k + "\"><h3>" + esc(s.name) + ": " + fmt(s.score[i], 4) +
      "</h3><div class=\"numbers\">" + esc(numbers) + "</div>" +
      sentence("hypothesis", hyp, "h", matches) + sentence("reference", ref, "r", matches) +
      "<div class=\"matrix-wrap\">" + matrix(hyp, ref, matches) + "</div></div>";
  }
  function renderDetail() {
    var body = document.getElementById("detail-body"), title = document.getElementById("detail-title");
    var i = parseInt(state.seg, 10) - 1;
    if (!(i >= 0 && i < N)) {
      title.textContent = "";
      body.innerHTML = "<p class=\"hint\">Choose a segment in the table.</p>";
      return;
    }
    title.textContent = "of segment " + (i + 1);
    var html = "<div class=\"pager\"><button type=\"button\" data-step=\"-1\">‹ previous</button> " +
      "<button type=\"button\" data-step=\"1\">next ›</button> <span class=\"hint\">(in the table's order)</span></div><div class=\"panels\">";
    S.forEach(function (_, k) { html += panel(k, i); });
    body.innerHTML = html + "</div>";
  }

  /* -- events -------------------------------------------------------------------------------- */
  document.querySelector("#segment-table thead").addEventListener("click", function (event) {
    var th = event.target.closest("th[data-key]");
    if (!th) { return; }
    var key = th.getAttribute("data-key");
    var dir = state.sort === key && state.dir === "asc" ? "desc" : "asc";
    if (state.sort !== key && key !== "seg") { dir = "desc"; }
    update({ sort: key, dir: dir, page: 1 });
  });
  function choose(event) {
    var tr = event.target.closest("tr[data-seg]");
    if (!tr) { return; }
    update({ seg: String(+tr.getAttribute("data-seg") + 1) });
    document.getElementById("detail").scrollIntoView();
  }
  var tbody = document.querySelector("#segment-table tbody");
  tbody.addEventListener("click", choose);
  tbody.addEventListener("keydown", function (event) {  /* rows are focusable: Enter opens */
    if (event.key === "Enter" || event.key === " ") { event.preventDefault(); choose(event); }
  });
  document.getElementById("filters").addEventListener("input", function (event) {
    var field = event.target, changes = { page: 1 };
    changes[field.name] = field.name === "size" || field.name === "a" || field.name === "b"
      ? parseInt(field.value, 10) : field.value;
    update(changes);
    syncForm();
  });
  document.getElementById("reset").addEventListener("click", function () {
    state = Object.assign({}, DEFAULTS);
    writeHash();
    syncForm();
    render();
  });
  document.querySelectorAll("[data-page]").forEach(function (button) {
    button.addEventListener("click", function () {
      var where = button.getAttribute("data-page");
      var page = where === "first" ? 1 : where === "last" ? pages()
        : state.page + (where === "next" ? 1 : -1);
      update({ page: Math.min(pages(), Math.max(1, page)) });
    });
  });
  var detail = document.getElementById("detail-body");
  detail.addEventListener("click", function (event) {
    var button = event.target.closest("[data-step]");
    if (!button || !filtered.length) { return; }
    var at = filtered.indexOf(parseInt(state.seg, 10) - 1);
    var next = filtered[Math.min(filtered.length - 1, Math.max(0, at + +button.getAttribute("data-step")))];
    update({ seg: String(next + 1), page: Math.floor(filtered.indexOf(next) / state.size) + 1 });
  });
  detail.addEventListener("mouseover", function (event) {
    var target = event.target.closest("[data-m]");
    detail.querySelectorAll(".hot").forEach(function (e) { e.classList.remove("hot"); });
    if (!target) { return; }
    var host = target.closest(".panel");
    host.querySelectorAll(".tok[data-m=\"" + target.getAttribute("data-m") + "\"]").forEach(function (e) {
      e.classList.add("hot");
    });
  });
  window.addEventListener("hashchange", function () { readHash(); syncForm(); render(); });

  readHash();
  syncForm();
  render();

  /* For scripts and tests: the model, the current view and when the page became usable. */
  window.meteorReport = {
    data: DATA,
    state: function () { return Object.assign({}, state); },
    filtered: function () { return filtered.slice(); },
    pages: pages,
    readyAt: performance.now()
  };
  document.documentElement.setAttribute("data-ready", "1");
})();
