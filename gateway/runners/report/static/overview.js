/* Overview: a run's headline figures, masked episodes by kind, end reasons, reward by family/app/tier/split/exposure. */
"use strict";

REPORT.page("Overview", (main, site) => {
  const {el, num, bar, table} = REPORT;
  const run = Number(REPORT.param("run", "0"));
  return REPORT.load("r" + run + "/overview").then((o) => {
    const card = (id, label, figure, note) => el("div", {class: "card"},
      el("div", {class: "label", text: label}), el("div", {class: "figure", id: id, text: figure}),
      note ? el("div", {class: "note", text: note}) : null);
    const interval = (f) => f.low === null ? "" : "95% interval " + num(f.low) + " – " + num(f.high);
    const pk = o.pass_at_k, p1 = o.pass_at_1, rate = o.pass_rate;
    REPORT.fill(main, 
      el("h1", {text: "Run " + o.name}),
      el("div", {class: "cards"},
        card("fig-episodes", "episodes", o.episodes, o.tasks + " tasks"),
        card("fig-masked", "masked", o.masked, "left out of every figure below"),
        card("fig-mean", "mean reward", num(o.mean_reward), "of " + (o.episodes - o.masked) + " unmasked episodes"),
        card("fig-passk", "pass@" + pk.k, num(pk.value), interval(pk) + " (bootstrap over " + pk.tasks + " tasks)"),
        pk.k > 1 ? card("fig-pass1", "pass@1", num(p1.value), interval(p1) + " (bootstrap over " + p1.tasks +
          " tasks)") : null,
        card("fig-passrate", "episodes passed", rate.passed + " / " + rate.of,
          rate.low === null ? "" : "Wilson 95% interval " + num(rate.low) + " – " + num(rate.high)),
        card("fig-toolerrors", "tool errors", o.tool_errors, "of " + o.tool_calls + " calls; " + o.not_offered +
          " to tools not offered"),
        card("fig-duration", "mean episode", REPORT.seconds(o.timings.total_s),
          "model " + REPORT.seconds(o.timings.model_s) + ", tools " + REPORT.seconds(o.timings.tools_s))),
      el("div", {class: "grid2"},
        el("section", {},
          el("h2", {text: "Masked episodes by failure kind"}),
          Object.keys(o.masked_by_kind).length ? table(["failure kind", "episodes", ""],
            Object.entries(o.masked_by_kind).map(([k, n]) => [k, String(n), bar(n, o.episodes)]), {id: "masked"})
            : el("p", {class: "muted", text: "No episode was masked."})),
        el("section", {},
          el("h2", {text: "End reasons"}),
          table(["end reason", "episodes", ""],
            Object.entries(o.end_reasons).map(([k, n]) => [k, String(n), bar(n, o.episodes)]), {id: "ends"}))),
      el("h2", {text: "Reward by group"}),
      el("p", {class: "muted", text: "Mean reward of each group's unmasked episodes (bar: 0 to 1); an episode " +
        "counts once for each app it enables."}),
      el("div", {class: "grid2"}, Object.entries(o.groups).map(([name, rows]) => el("section", {},
        el("h3", {text: "by " + name}),
        table([name, "episodes", "masked", "passed", "mean reward"], rows.map((g) => [
          name === "family" && g.name !== "(none)"
            ? el("a", {href: "tasks.html?run=" + run + "&family=" + encodeURIComponent(g.name), text: g.name})
            : g.name,
          String(g.episodes), String(g.masked), String(g.passed),
          el("span", {}, bar(g.mean), num(g.mean))]), {id: "group-" + name})))),
      el("p", {class: "muted", id: "provenance", text: "adapters: " + Object.entries(o.adapters)
        .map(([k, n]) => k + " " + n).join(", ") + "; grader versions: " + Object.keys(o.grader_versions).length +
        " distinct (each task's checks have their own; the task and episode pages give it)" +
        (o.regraded ? "; regraded episodes: " + o.regraded : "")}),
    );
  });
});
