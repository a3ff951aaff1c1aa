// mlbench explore: one question per row, its languages (or two models) side by side.
// Every text from the data goes into the page through textContent, never as markup.
"use strict";
(function () {
  const DATA = JSON.parse(document.getElementById("explorer-data").textContent);
  // The aligned view's cells are its benchmarks' own, held once on the page and named by
  // where they are ("at": task, question, cell): each is read back under its column.
  for (const task of Object.values(DATA.tasks)) for (const q of task.questions) {
    q.cells = q.cells.map((c) => c.at === undefined ? c
      : Object.assign({}, DATA.tasks[c.at[0]].questions[c.at[1]].cells[c.at[2]], { l: c.l }));
  }
  const PAGE = 40; // cards rendered at a time: a benchmark of 817 questions stays quick
  const KEYS = ["task", "model", "vs", "lang", "langs", "mode", "metric", "right", "wrong", "disagree", "flips", "flag",
    "judge", "slice", "by", "q", "sort", "id"];
  let state = {};
  let shown = PAGE;
  let langsOpen = false; // the languages box stays open while its boxes are ticked (each tick redraws)

  function el(tag, cls, text) {
    const node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }

  // ---- state <-> URL fragment, so that a filtered view or one question can be linked
  function readHash() {
    const params = new URLSearchParams(location.hash.slice(1));
    const next = {};
    for (const key of KEYS) if (params.get(key)) next[key] = params.get(key);
    const tasks = Object.keys(DATA.tasks);
    if (!tasks.includes(next.task)) next.task = tasks[0];
    if (next.sort !== undefined && next.sort !== "spread") delete next.sort;
    const task = DATA.tasks[next.task];
    if (!own(task.modes, next.mode)) delete next.mode;
    const present = modelsOf(task);
    // A link may name models by label (the report's links do): their index here.
    for (const key of ["model", "vs"]) {
      if (next[key] !== undefined && DATA.models.includes(next[key])) next[key] = String(DATA.models.indexOf(next[key]));
    }
    // A model that did not run this benchmark: the first that did.
    next.model = present.includes(next.model) ? next.model : present[0];
    if (next.vs !== undefined && (next.vs === next.model || !present.includes(next.vs))) delete next.vs;
    if (!own(task.metrics, next.metric) || !inMode(task, next.mode, next.metric)) next.metric = defaultMetric(task, next.mode);
    // Filters whose control this view does not draw would hide questions with no way back.
    if (next.vs !== undefined || !judgeable(task, next.metric)) {
      delete next.right; delete next.wrong; delete next.disagree; delete next.flips;
    }
    if (next.flips !== undefined && !translationsOf(task, next.flips).length) delete next.flips;
    for (const key of ["right", "wrong"]) if (next[key] !== undefined && !task.langs.includes(next[key])) delete next[key];
    if (next.slice !== undefined) {
      const [field, value] = splitOnce(next.slice, "=");
      const slices = slicesOf(task);
      if (!own(slices, field) || !slices[field].has(value)) delete next.slice;
    }
    if (next.by !== undefined && !own(slicesOf(task), next.by)) delete next.by;
    if (next.judge !== undefined && !verdictsOf(task).includes(next.judge)) delete next.judge;
    if (next.vs !== undefined && !task.langs.includes(next.lang)) next.lang = task.langs[0];
    if (next.langs !== undefined) {
      // Known codes in the benchmark's order; all of them, or none, is no filter.
      const chosen = next.langs.split(",");
      const kept = task.langs.filter((l) => chosen.includes(l));
      if (kept.length && kept.length < task.langs.length) next.langs = kept.join(","); else delete next.langs;
    }
    return next;
  }
  function writeHash() {
    const params = new URLSearchParams();
    for (const key of KEYS) if (state[key] !== undefined && state[key] !== "") params.set(key, state[key]);
    history.replaceState(null, "", "#" + params.toString());
  }
  function set(changes, redraw = true) {
    state = Object.assign({}, state, changes);
    for (const key of Object.keys(changes)) if (changes[key] === "" || changes[key] === false) delete state[key];
    shown = PAGE;
    writeHash();
    state = readHash(); // the same checks as a link's: a model or metric the task lacks
    writeHash();
    render(redraw);
  }

  function modelsOf(task) {
    const seen = new Set();
    for (const q of task.questions) for (const c of q.cells) seen.add(String(c.mo));
    return [...seen].sort((a, b) => a - b);
  }

  // A mode's metrics: its own (by base name: "mc2@..." is mc2's), and for a mode that
  // writes answers, every metric no mode declares (surface checks, judges, combined).
  function inMode(task, mode, metric) {
    const modes = task.modes || {};
    if (!mode || !own(modes, mode)) return true;
    const base = metric.split("@")[0];
    if (modes[mode].metrics.includes(base)) return true;
    return modes[mode].answers && !Object.values(modes).some((m) => m.metrics.includes(base));
  }

  function defaultMetric(task, mode) {
    const names = Object.keys(task.metrics).filter((n) => inMode(task, mode, n));
    return names.find((n) => task.metrics[n].headline) || names[0] || "";
  }

  function own(object, key) {
    return object !== undefined && object !== null && Object.prototype.hasOwnProperty.call(object, key);
  }
  // A metric's descriptor: results.json describes "wrong_language", the samples hold
  // "wrong_language@adversarial" too.
  function about(task, metric) {
    if (own(task.metrics, metric)) return task.metrics[metric];
    const base = metric.split("@")[0];
    return own(task.metrics, base) ? task.metrics[base] : {};
  }
  // Right or wrong has a meaning only for a share (0–1) with a direction: 1 for a 0/1
  // metric, at least 0.5 otherwise, turned round where lower is better.
  function judgeable(task, metric) {
    const d = about(task, metric);
    return !!d.share && (d.higher === true || d.higher === false);
  }
  function isRight(task, metric, value) {
    const d = about(task, metric);
    const right = d.binary ? value === 1 : value >= 0.5;
    return d.higher === false ? !right : right;
  }

  // The languages a card shows: the languages filter (32 languages are 7 rows of cells a
  // question) with the right-in and wrong-in languages, else every language. Filters,
  // "disagree" and the spread read the cells shown: what is counted is what is seen.
  function langsShown(task) {
    if (state.langs === undefined) return task.langs;
    const chosen = state.langs.split(",").concat([state.right, state.wrong], translationsOf(task, state.flips));
    return task.langs.filter((l) => chosen.includes(l));
  }

  // The aligned view's translations of a language ("es" → "es (truthfulqa_multi)", "es
  // (truthfulqa_multi_mt)", …), of every language that has two or more ("all"), or none.
  function translationsOf(task, which) {
    const translations = task.translations || {};
    if (which === "all") return Object.values(translations).flat();
    return own(translations, which) ? translations[which] : [];
  }
  // The languages whose translations disagree on the question (right in one, wrong in
  // another) for the metric: where the translation, not the model, decides.
  function flipping(task, cells) {
    const translations = task.translations || {};
    const langs = state.flips === "all" ? Object.keys(translations) : [state.flips];
    return langs.filter((lang) => {
      const values = translationsOf(task, lang).map((l) => cells[l] && cells[l].m[state.metric]);
      const verdicts = values.filter((v) => typeof v === "number").map((v) => isRight(task, state.metric, v));
      return verdicts.includes(true) && verdicts.includes(false);
    });
  }

  function cellsOf(question, shownLangs) {
    // language (or model, side by side) → cell
    const out = {};
    for (const c of question.cells) {
      if (state.vs !== undefined) {
        if (c.l === state.lang && (String(c.mo) === state.model || String(c.mo) === state.vs)) out[c.mo] = c;
      } else if (String(c.mo) === state.model && shownLangs.includes(c.l)) out[c.l] = c;
    }
    return out;
  }

  function spread(task, cells) {
    const values = Object.values(cells).map((c) => c.m[state.metric]).filter((v) => typeof v === "number");
    return values.length > 1 ? Math.max(...values) - Math.min(...values) : 0;
  }

  function matches(task, question, cells) {
    if (state.id !== undefined) return question.id === state.id;
    const all = Object.values(cells);
    if (!all.length) return false;
    const metric = state.metric;
    if (state.right || state.wrong) {
      const a = cells[state.right], b = cells[state.wrong];
      if (state.right && (!a || typeof a.m[metric] !== "number" || !isRight(task, metric, a.m[metric]))) return false;
      if (state.wrong && (!b || typeof b.m[metric] !== "number" || isRight(task, metric, b.m[metric]))) return false;
    }
    if (state.flips && !flipping(task, cells).length) return false;
    if (state.disagree) {
      const verdicts = all.filter((c) => typeof c.m[metric] === "number").map((c) => isRight(task, metric, c.m[metric]));
      if (!(verdicts.includes(true) && verdicts.includes(false))) return false;
    }
    if (state.flag) {
      const hit = all.some((c) => (c.f || []).some((f) => state.flag === "any" || f.startsWith(state.flag)));
      if (!hit) return false;
    }
    if (state.slice) {
      const [field, value] = splitOnce(state.slice, "=");
      if (!all.some((c) => c.s && c.s[field] === value)) return false;
    }
    if (state.judge) {
      const [kind, label] = state.judge.split(":");
      if (!all.some((c) => c.j && c.j[kind] && c.j[kind].l === label)) return false;
    }
    if (state.q) {
      const needle = state.q.toLowerCase();
      const text = (c) => [c.q, c.a, c.a2, c.r].filter(Boolean).join("\n").toLowerCase();
      if (!all.some((c) => text(c).includes(needle)) && !question.id.toLowerCase().includes(needle)) return false;
    }
    return true;
  }

  // ---- controls
  function select(label, name, options, value, onChange) {
    const wrap = el("label", null, label + " ");
    const box = el("select");
    box.name = name;
    for (const [v, text] of options) {
      const option = el("option", null, text);
      option.value = v;
      if (v === value) option.selected = true;
      box.appendChild(option);
    }
    box.addEventListener("change", () => onChange(box.value));
    wrap.appendChild(box);
    return wrap;
  }

  function flagsOf(task) {
    const seen = new Set();
    for (const q of task.questions) for (const c of q.cells) for (const f of c.f || []) seen.add(f.replace(/ \(.*\)$/, ""));
    return [...seen].sort();
  }
  function splitOnce(text, separator) {
    const at = text.indexOf(separator);
    return at < 0 ? [text, ""] : [text.slice(0, at), text.slice(at + 1)];
  }
  function labelOf(cells, field) {
    for (const c of Object.values(cells)) if (c.s && c.s[field] !== undefined) return c.s[field];
    return "(none)";
  }
  function slicesOf(task) {
    const fields = {};
    for (const q of task.questions) for (const c of q.cells) for (const [f, v] of Object.entries(c.s || {})) {
      (fields[f] = fields[f] || new Set()).add(v);
    }
    return fields;
  }
  function verdictsOf(task) {
    const seen = new Set();
    for (const q of task.questions) for (const c of q.cells) for (const k of Object.keys(c.j || {})) if (c.j[k].l) seen.add(k + ":" + c.j[k].l);
    return [...seen].sort();
  }

  function languagesBox(task) {
    const box = el("details", "langs");
    box.open = langsOpen;
    box.addEventListener("toggle", () => { langsOpen = box.open; });
    const chosen = langsShown(task);
    box.appendChild(el("summary", null, "languages: " + (state.langs === undefined ? "all " + task.langs.length
      : chosen.length + " of " + task.langs.length)));
    const list = el("div", "choices");
    const all = el("button", null, "all");
    all.type = "button";
    all.name = "langs-all";
    all.addEventListener("click", () => set({ langs: "" }));
    list.appendChild(all);
    for (const lang of task.langs) {
      const label = el("label", null, " " + lang);
      const tick = el("input");
      tick.type = "checkbox";
      tick.name = "langs";
      tick.value = lang;
      tick.checked = state.langs !== undefined && state.langs.split(",").includes(lang);
      tick.addEventListener("change", () => {
        const ticked = [...list.querySelectorAll("input:checked")].map((t) => t.value);
        set({ langs: ticked.join(","), id: "" });
      });
      label.prepend(tick);
      list.appendChild(label);
    }
    box.appendChild(list);
    return box;
  }

  function controls(task) {
    const box = document.getElementById("controls");
    box.replaceChildren();
    const none = [["", "—"]];
    box.appendChild(select("benchmark", "task", Object.keys(DATA.tasks).map((t) => [t, t]), state.task,
      (v) => set({ task: v, metric: "", right: "", wrong: "", lang: "", vs: "", id: "" })));
    const models = modelsOf(task).map((i) => [i, DATA.models[i]]);
    if (models.length > 1) {
      box.appendChild(select("model", "model", models, state.model, (v) => set({ model: v, id: "" })));
      box.appendChild(select("against", "vs", none.concat(models.filter(([i]) => i !== state.model)), state.vs || "",
        (v) => set({ vs: v, lang: v ? state.lang || task.langs[0] : "", right: "", wrong: "" })));
    }
    if (state.vs !== undefined) {
      box.appendChild(select("language", "lang", task.langs.map((l) => [l, l]), state.lang, (v) => set({ lang: v })));
    } else if (task.langs.length > 1) {
      box.appendChild(languagesBox(task));
    }
    const modes = Object.keys(task.modes || {});
    if (modes.length > 1) {
      box.appendChild(select("mode", "mode", none.concat(modes.map((m) => [m, m])), state.mode || "",
        (v) => set({ mode: v, right: "", wrong: "" })));
    }
    const metrics = Object.keys(task.metrics).filter((m) => inMode(task, state.mode, m)).map((m) => [m, m]);
    box.appendChild(select("metric", "metric", metrics, state.metric, (v) => set({ metric: v })));
    if (state.vs === undefined && judgeable(task, state.metric)) {
      const langs = none.concat(task.langs.map((l) => [l, l]));
      box.appendChild(select("right in", "right", langs, state.right || "", (v) => set({ right: v, id: "" })));
      box.appendChild(select("wrong in", "wrong", langs, state.wrong || "", (v) => set({ wrong: v, id: "" })));
      const translated = Object.keys(task.translations || {});
      if (translated.length) {
        // Turned on, the language's translations are the columns shown (side by side).
        const choices = none.concat([["all", "any language"]], translated.map((l) => [l, l]));
        box.appendChild(select("translation flips", "flips", choices, state.flips || "",
          (v) => set({ flips: v, langs: translationsOf(task, v).join(","), id: "" })));
      }
    }
    if (judgeable(task, state.metric)) {
      const disagree = el("label", null, " disagree");
      const tick = el("input");
      tick.type = "checkbox";
      tick.name = "disagree";
      tick.checked = !!state.disagree;
      tick.addEventListener("change", () => set({ disagree: tick.checked ? "1" : "", id: "" }));
      disagree.prepend(tick);
      box.appendChild(disagree);
    }
    const flags = none.concat([["any", "any flag"]], flagsOf(task).map((f) => [f, f]));
    box.appendChild(select("flag", "flag", flags, state.flag || "", (v) => set({ flag: v, id: "" })));
    const verdicts = verdictsOf(task);
    if (verdicts.length) {
      box.appendChild(select("verdict", "judge", none.concat(verdicts.map((v) => [v, v])), state.judge || "",
        (v) => set({ judge: v, id: "" })));
    }
    const slices = slicesOf(task);
    const fields = Object.keys(slices).sort();
    if (fields.length) {
      const values = fields.flatMap((f) => [...slices[f]].sort().map((v) => [f + "=" + v, f + ": " + v]));
      box.appendChild(select("slice", "slice", none.concat(values), state.slice || "", (v) => set({ slice: v, id: "" })));
      box.appendChild(select("group by", "by", none.concat(fields.map((f) => [f, f])), state.by || "",
        (v) => set({ by: v })));
    }
    box.appendChild(select("sort", "sort", [["", "question id"], ["spread", "spread of the metric"]], state.sort || "",
      (v) => set({ sort: v })));
    const search = el("input");
    search.type = "search";
    search.name = "q";
    search.placeholder = "search questions and answers";
    search.value = state.q || "";
    search.addEventListener("input", () => set({ q: search.value, id: "" }, false));
    box.appendChild(search);
    const count = el("span");
    count.id = "count";
    box.appendChild(count);
  }

  // ---- one question
  function formatValue(task, name, value) {
    const d = about(task, name);
    return value.toFixed(d.decimals === undefined ? 3 : d.decimals);
  }

  function cellView(task, title, c, other) {
    const box = el("div", "cell");
    box.appendChild(el("h3", null, title));
    if (!c) {
      box.appendChild(el("div", "missing", "not run"));
      return box;
    }
    box.appendChild(el("div", "q", c.q));
    const answers = !state.mode || task.modes[state.mode].answers;
    if (c.a !== undefined && answers) box.appendChild(el("div", "a", c.a === "" ? "(empty answer)" : c.a));
    if (c.a2 !== undefined) box.appendChild(el("div", "a", c.a2));
    if (c.r) box.appendChild(el("div", "r", c.r));
    if (c.e) box.appendChild(el("div", "error", "failed: " + c.e));
    const names = Object.keys(c.m).filter((n) => !n.startsWith("marker_") && inMode(task, state.mode, n));
    if (names.length) {
      const table = el("table", "metrics");
      for (const name of names) {
        const row = el("tr");
        row.appendChild(el("td", null, name));
        const value = el("td", null, formatValue(task, name, c.m[name]));
        if (judgeable(task, name)) {
          value.classList.add(isRight(task, name, c.m[name]) ? "good" : "bad");
        }
        if (other && typeof other.m[name] === "number" && other.m[name] !== c.m[name]) value.classList.add("diff");
        row.appendChild(value);
        table.appendChild(row);
      }
      box.appendChild(table);
    }
    if (c.o && (!state.mode || !task.modes[state.mode].answers)) {
      const list = el("ol", "options");
      for (const [text, p, correct] of c.o) {
        const item = el("li", correct === true ? "correct" : correct === false ? "wrong" : null);
        const bar = el("span", "bar");
        bar.style.width = Math.round(p * 60) + "px";
        item.appendChild(bar);
        item.appendChild(document.createTextNode((p * 100).toFixed(1) + "% " + text));
        list.appendChild(item);
      }
      box.appendChild(list);
    }
    for (const kind of Object.keys(c.j || {})) {
      const v = c.j[kind];
      const line = el("div", "judge", kind + ": " + (v.l || (v.e ? "failed" : "—")) +
        (typeof v.s === "number" ? " (" + v.s.toFixed(3) + ")" : "") +
        (typeof v.p === "number" ? " (supported " + v.p.toFixed(2) + ")" : ""));
      if (v.t) {
        const more = el("details");
        more.appendChild(el("summary", null, "rationale"));
        more.appendChild(el("div", "a", v.t));
        line.appendChild(more);
      }
      if (v.x) {
        const read = el("details");
        read.appendChild(el("summary", null, "what the judge read"));
        read.appendChild(el("pre", "sent", v.x));
        line.appendChild(read);
      }
      if (v.e) line.appendChild(el("span", "error", " " + v.e));
      box.appendChild(line);
    }
    for (const f of c.f || []) box.appendChild(el("span", "flag", f));
    return box;
  }

  function card(task, question, cells) {
    const box = el("section", "question");
    const head = el("h2");
    const link = el("a", null, "#" + question.id);
    const params = new URLSearchParams({ task: state.task, model: state.model, id: question.id });
    link.href = "#" + params.toString();
    head.appendChild(link);
    if (state.sort === "spread") head.appendChild(el("span", null, "spread " + spread(task, cells).toFixed(3)));
    if (state.flips) head.appendChild(el("span", "flips", "flips in " + flipping(task, cells).join(", ")));
    box.appendChild(head);
    const grid = el("div", "cells");
    if (state.vs !== undefined) {
      const a = cells[state.model], b = cells[state.vs];
      grid.appendChild(cellView(task, DATA.models[state.model] + " · " + state.lang, a, b));
      grid.appendChild(cellView(task, DATA.models[state.vs] + " · " + state.lang, b, a));
    } else {
      for (const lang of langsShown(task)) grid.appendChild(cellView(task, lang, cells[lang], null));
    }
    box.appendChild(grid);
    return box;
  }

  function render(redraw = true) {
    const task = DATA.tasks[state.task];
    if (redraw || !document.getElementById("count")) controls(task); // typing keeps its box
    const rows = [];
    const langs = langsShown(task);
    for (const question of task.questions) {
      const cells = cellsOf(question, langs);
      if (matches(task, question, cells)) rows.push([question, cells]);
    }
    if (state.sort === "spread") rows.sort((x, y) => spread(task, y[1]) - spread(task, x[1]));
    if (state.by) {
      // Grouped by a label: groups in label order, each keeping the order above.
      rows.sort((x, y) => labelOf(x[1], state.by).localeCompare(labelOf(y[1], state.by)));
    }
    const total = task.questions.filter((q) => Object.keys(cellsOf(q, langs)).length).length;
    document.getElementById("count").textContent = rows.length + " of " + total + " questions";
    const main = document.getElementById("questions");
    main.replaceChildren();
    let group = null;
    for (const [question, cells] of rows.slice(0, shown)) {
      if (state.by && labelOf(cells, state.by) !== group) {
        group = labelOf(cells, state.by);
        const size = rows.filter((row) => labelOf(row[1], state.by) === group).length;
        main.appendChild(el("h2", "group", state.by + ": " + group + " (" + size + " questions)"));
      }
      main.appendChild(card(task, question, cells));
    }
    if (rows.length > shown) {
      const more = el("button", null, "show " + Math.min(PAGE, rows.length - shown) + " more");
      more.id = "more";
      more.addEventListener("click", () => { shown += PAGE; render(); });
      main.appendChild(more);
    }
  }

  function notice() {
    if (!DATA.skipped.length) return;
    const box = document.getElementById("notice");
    box.appendChild(el("strong", null, "Left out: "));
    const list = el("ul");
    for (const line of DATA.skipped) list.appendChild(el("li", null, line));
    box.appendChild(list);
    box.hidden = false;
  }

  window.addEventListener("hashchange", () => { state = readHash(); shown = PAGE; render(); });
  notice();
  if (!Object.keys(DATA.tasks).length) {
    document.getElementById("questions").appendChild(el("p", "missing", "Nothing to show."));
    return;
  }
  state = readHash();
  writeHash();
  render();
  document.body.dataset.ready = "1";
})();
