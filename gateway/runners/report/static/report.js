/* The report's shared code: loading data files by script tag, building elements, the header, folded values.
   No library and nothing from the network: a page opened from disk cannot fetch, so data comes as
   data/<key>.js files that call REPORT.put(key, value). */
"use strict";

const REPORT = (() => {
  const store = new Map();
  const waiting = new Map();

  /** Called by every data file. */
  function put(key, value) {
    store.set(key, value);
    for (const [resolve] of waiting.get(key) || []) resolve(value);
    waiting.delete(key);
  }

  /** The value of data/<key>.js, adding its script tag the first time. */
  function load(key) {
    if (store.has(key)) return Promise.resolve(store.get(key));
    return new Promise((resolve, reject) => {
      const queue = waiting.get(key);
      if (queue) { queue.push([resolve, reject]); return; }
      waiting.set(key, [[resolve, reject]]);
      const script = document.createElement("script");
      script.src = "data/" + key + ".js";
      script.onerror = () => {
        const error = new Error("cannot load data/" + key + ".js");
        for (const [, fail] of waiting.get(key) || []) fail(error);
        waiting.delete(key);
      };
      document.head.appendChild(script);
    });
  }

  /** An element: el("a", {href: "x", class: "c", text: "t"}, child, ...); strings become text nodes. */
  function el(tag, props, ...children) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(props || {})) {
      if (value === undefined || value === null || value === false) continue;
      if (name === "text") node.textContent = String(value);
      else if (name === "class") node.className = value;
      else if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
      else node.setAttribute(name, value === true ? "" : String(value));
    }
    node.append(...kids(children));
    return node;
  }

  /** Children as nodes: arrays flattened, null/undefined/false left out, the rest as text. */
  function kids(children) {
    return children.flat(Infinity).filter((c) => c !== null && c !== undefined && c !== false)
      .map((c) => (c instanceof Node ? c : document.createTextNode(String(c))));
  }

  /** Replace a node's children (arrays flattened, as in el). */
  function fill(node, ...children) {
    node.replaceChildren(...kids(children));
    return node;
  }

  function num(x, digits = 3) {
    return x === null || x === undefined ? "n/a" : Number(x).toFixed(digits);
  }

  function seconds(x) {
    return x === null || x === undefined ? "n/a" : Number(x).toFixed(2) + " s";
  }

  /** A horizontal bar for a value in [0, max]. */
  function bar(value, max = 1) {
    const share = value === null || value === undefined || !max ? 0 : Math.max(0, Math.min(1, value / max));
    return el("span", {class: "bar", title: num(value)},
      el("span", {class: "fill", style: "width:" + (100 * share).toFixed(1) + "%"}));
  }

  function param(name, fallback = null) {
    const value = new URLSearchParams(location.search).get(name);
    return value === null ? fallback : value;
  }

  function table(columns, rows, attrs = {}) {
    return el("table", attrs,
      el("thead", {}, el("tr", {}, columns.map((c) => el("th", {text: c})))),
      el("tbody", {}, rows.map((cells) => el("tr", {}, cells.map((c) => el("td", {}, c))))));
  }

  function badge(reward, masked) {
    if (masked) return el("span", {class: "badge masked", text: "masked"});
    const kind = reward >= 1 ? "pass" : reward > 0 ? "part" : "fail";
    return el("span", {class: "badge " + kind, text: num(reward, 2)});
  }

  /** A text shown whole: short ones as they are, long ones folded (opened on a click), very long ones loaded. */
  function value(v, run) {
    if (v === null || v === undefined) return el("span", {class: "muted", text: "(none)"});
    if (typeof v === "object" && v.$long) {
      const pre = el("pre", {class: "value"}, v.head + " …");
      const details = el("details", {class: "long"},
        el("summary", {text: "long value, " + v.chars.toLocaleString() + " characters: open to load it whole"}),
        pre);
      details.addEventListener("toggle", () => {
        if (!details.open || details.dataset.loaded) return;
        details.dataset.loaded = "1";
        load(v.$long).then((text) => { pre.textContent = text; },
          (error) => { pre.textContent = error.message; pre.classList.add("error"); });
      });
      return details;
    }
    const text = String(v);
    if (text.length <= 600 && text.split("\n").length <= 12) return el("pre", {class: "value"}, text);
    const first = text.replace(/\s+/g, " ").slice(0, 140);
    return el("details", {class: "long"},
      el("summary", {text: first + " … (" + text.length.toLocaleString() + " characters)"}),
      el("pre", {class: "value"}, text));
  }

  /** The header: the report's pages, and the runs when there are several. */
  function header(active, site) {
    const run = Number(param("run", "0"));
    const links = [["index.html", "Overview"], ["tasks.html", "Tasks"]];
    if (site.pairs.length) links.push(["compare.html", "Compare"]);
    const nav = el("nav", {},
      el("span", {class: "brand", text: "company-gateway report"}),
      links.map(([href, label]) => el("a", {href: href + (href === "compare.html" ? "" : "?run=" + run),
        class: label === active ? "active" : null, text: label})));
    if (site.runs.length > 1) {
      const pick = el("select", {id: "run-pick", "aria-label": "run"},
        site.runs.map((r, i) => el("option", {value: i, selected: i === run, text: r.name})));
      pick.addEventListener("change", () => {
        const params = new URLSearchParams(location.search);
        params.set("run", pick.value);
        params.delete("t"); params.delete("e");
        location.search = params.toString();
      });
      nav.append(el("label", {class: "runs"}, "run ", pick));
    } else {
      nav.append(el("span", {class: "runs muted", text: site.runs[0].name}));
    }
    document.body.prepend(el("header", {}, nav));
  }

  /** Run a page: load the site index, draw the header, then the page's own drawing. */
  function page(active, draw) {
    const main = document.getElementById("main");
    load("site").then((site) => {
      header(active, site);
      return draw(main, site);
    }).then(() => { document.body.dataset.ready = "drawn"; }, (error) => {
      fill(main, el("p", {class: "error", text: "This page could not be drawn: " + error.message}));
      document.body.dataset.ready = "failed";
      throw error;
    });
  }

  return {put, load, el, fill, num, seconds, bar, param, table, badge, value, page};
})();
