/* Task: one task's figures and its episodes (the repeats), each linked to its episode page. */
"use strict";

REPORT.page("Tasks", (main, site) => {
  const {el, num, badge} = REPORT;
  const run = Number(REPORT.param("run", "0"));
  const t = REPORT.param("t", "0");
  return REPORT.load("r" + run + "/t/" + t).then((task) => {
    const r = task.row;
    const fact = (k, v) => [el("dt", {text: k}), el("dd", {}, v ?? "")];
    REPORT.fill(main, 
      el("h1", {text: r.task_id}),
      el("dl", {class: "facts"},
        fact("family", r.family), fact("company", task.company), fact("tier", r.tier), fact("split", r.split),
        fact("apps", (r.apps || []).join(", ")),
        fact("episodes", r.episodes + " (" + r.masked + " masked)"),
        fact("mean reward", num(r.mean)), fact("variance", num(r.variance)), fact("pass@k", num(r.pass_at_k)),
        fact("end reasons", Object.entries(r.end_reasons).map(([k, n]) => k + " " + n).join(", "))),
      task.instruction ? el("h2", {text: "Instruction"}) : null,
      task.instruction ? el("div", {class: "instruction", text: task.instruction}) : null,
      el("h2", {text: "Episodes"}),
      el("table", {id: "episodes"},
        el("thead", {}, el("tr", {}, ["repeat", "reward", "failure kind", "ended", "steps", "calls", "tool errors",
          "checks failed", "duration", "grader_version"].map((c) => el("th", {text: c})))),
        el("tbody", {}, task.episodes.map((e) => el("tr", {},
          el("td", {}, el("a", {href: "episode.html?run=" + run + "&e=" + e.i, text: "#" + e.repeat})),
          el("td", {}, badge(e.reward, e.mask_sample)), el("td", {text: e.failure_kind ?? ""}),
          el("td", {text: e.end_reason ?? ""}), el("td", {class: "num", text: e.steps ?? ""}),
          el("td", {class: "num", text: e.calls}),
          el("td", {class: "num", text: e.tool_errors + (e.not_offered ? " (" + e.not_offered + " not offered)" : "")}),
          el("td", {class: "num", text: e.checks_failed}), el("td", {class: "num", text: REPORT.seconds(e.duration_s)}),
          el("td", {class: "muted", text: e.grader_version ?? ""}))))));
  });
});
