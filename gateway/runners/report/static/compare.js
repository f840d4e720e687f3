/* Compare: run B against run A, task by task (mean reward and its change), and the episodes that changed. */
"use strict";

REPORT.page("Compare", (main, site) => {
  const {el, num, badge} = REPORT;
  if (!site.pairs.length) {
    REPORT.fill(main, el("p", {text: "Give two runs to compare them: company-gateway report A.jsonl B.jsonl -o DIR"}));
    return null;
  }
  const b = Number(REPORT.param("b", String(site.pairs[0][1])));
  const pick = el("select", {id: "b-pick", "aria-label": "run B"},
    site.pairs.map(([, i]) => el("option", {value: i, selected: i === b, text: site.runs[i].name})));
  pick.addEventListener("change", () => { location.search = "b=" + pick.value; });
  return REPORT.load("cmp-0-" + b).then((c) => {
    const delta = (d) => d === null ? el("span", {class: "muted", text: "n/a"})
      : el("span", {class: d > 0 ? "delta-up" : d < 0 ? "delta-down" : "", text: (d > 0 ? "+" : "") + num(d)});
    const tasks = c.tasks.slice().sort((x, y) => Math.abs(y.delta ?? 0) - Math.abs(x.delta ?? 0));
    const link = (runNo, t, text) => t === null ? el("span", {class: "muted", text: "—"})
      : el("a", {href: "task.html?run=" + runNo + "&t=" + t, text: text});
    REPORT.fill(main, 
      el("h1", {text: "Compare " + c.a + " → " + c.b}),
      el("div", {class: "filters"}, el("label", {}, "run A", el("span", {text: c.a})), el("label", {}, "run B", pick)),
      el("p", {}, "Mean reward (unmasked): " + num(c.mean_a) + " → " + num(c.mean_b) + " ",
        delta(c.mean_a === null || c.mean_b === null ? null : c.mean_b - c.mean_a)),
      el("h2", {text: "Episodes that changed (" + c.changed.length + ")"}),
      c.changed.length ? el("table", {id: "changed"},
        el("thead", {}, el("tr", {}, ["task", "repeat", "A", "B", ""].map((h) => el("th", {text: h})))),
        el("tbody", {}, c.changed.map((e) => el("tr", {},
          el("td", {text: e.task_id}), el("td", {text: "#" + e.repeat}),
          el("td", {}, el("a", {href: "episode.html?run=0&e=" + e.ia}, badge(e.a, e.masked_a))),
          el("td", {}, el("a", {href: "episode.html?run=" + b + "&e=" + e.ib}, badge(e.b, e.masked_b))),
          el("td", {}, delta(e.masked_a || e.masked_b ? null : e.b - e.a))))))
        : el("p", {class: "muted", text: "No episode's reward or mask changed."}),
      el("h2", {text: "Per task (largest change first)"}),
      el("table", {id: "cmp-tasks"},
        el("thead", {}, el("tr", {}, ["task", "mean A", "mean B", "change"].map((h) => el("th", {text: h})))),
        el("tbody", {}, tasks.map((t) => el("tr", {},
          el("td", {text: t.task_id}), el("td", {}, link(0, t.ta, num(t.a))),
          el("td", {}, link(b, t.tb, num(t.b))), el("td", {}, delta(t.delta)))))));
  });
});
