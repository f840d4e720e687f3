/* Episode: the instruction, every step (the model's text, each call's full arguments and result, errors
   marked), each check with its detail, the change set with field-level diffs, timings, grader_version. */
"use strict";

REPORT.page("Tasks", (main, site) => {
  const {el, num, badge, value} = REPORT;
  const run = Number(REPORT.param("run", "0"));
  const e = REPORT.param("e", "0");
  return REPORT.load("r" + run + "/e/" + e).then((ep) => {
    const fact = (k, v) => [el("dt", {text: k}), el("dd", {}, v ?? el("span", {class: "muted", text: "(none)"}))];
    const tag = (text, kind) => el("span", {class: "tag" + (kind ? " " + kind : ""), text: text});

    const call = (c, n) => {
      const failed = c.ok === false || c.offered === false;
      return el("div", {class: "call" + (failed ? " error" : ""), "data-tool": c.tool},
        el("div", {class: "head"}, el("span", {class: "muted", text: "call " + n}),
          el("span", {class: "tool", text: c.tool}),
          c.ok === true ? tag("ok", "good") : c.ok === false ? tag("error", "bad") : null,
          c.offered === false ? tag("not offered to the model", "bad") : null,
          c.s !== null && c.s !== undefined ? el("span", {class: "muted", text: REPORT.seconds(c.s)}) : null),
        el("div", {class: "part"}, el("div", {class: "label", text: "arguments"}), value(c.args, run)),
        el("div", {class: "part"}, el("div", {class: "label", text: "result"}), value(c.result, run)));
    };
    let n = 0;
    const steps = ep.steps.map((s, i) => el("div", {class: "step"},
      el("div", {class: "head", text: "Step " + (i + 1)}),
      s.text ? el("div", {class: "text"}, el("div", {class: "muted", text: "model"}), value(s.text, run)) : null,
      s.calls.length ? s.calls.map((c) => call(c, ++n))
        : el("div", {class: "muted", text: "no tool call: the model answered in text"})));

    const checks = el("table", {id: "checks"},
      el("thead", {}, el("tr", {}, ["check", "passed", "detail"].map((h) => el("th", {text: h})))),
      el("tbody", {}, ep.checks.map((c) => el("tr", {class: "check " + (c.passed ? "pass" : "fail")},
        el("td", {text: c.name}), el("td", {}, c.passed ? tag("passed", "good") : tag("failed", "bad")),
        el("td", {}, value(c.detail, run))))));

    let changes;
    if (!ep.changes) {
      changes = [el("p", {class: "muted", text: "No change set (no session was seeded)."})];
    } else {
      const ch = ep.changes, counts = ch.counts || {};
      changes = [
        el("p", {}, (counts.added ?? 0) + " added, " + (counts.changed ?? 0) + " changed, " + (counts.removed ?? 0) +
          " removed" + (ch.complete === false ? " (incomplete: some changes were left out)" : "")),
        ch.rows.length ? el("table", {id: "changes", class: "diff"},
          el("thead", {}, el("tr", {}, ["record", "field", "before", "after"].map((h) => el("th", {text: h})))),
          el("tbody", {}, ch.rows.flatMap((row) => row.fields.map((f, i) => el("tr", {},
            i === 0 ? el("td", {rowspan: row.fields.length},
              el("span", {class: "kind-" + row.kind, text: row.kind}), " ",
              el("span", {text: row.app + "." + row.collection + " "}), el("code", {text: row.id})) : null,
            el("td", {text: f.name}),
            el("td", {class: "before"}, f.before === null ? "" : value(f.before, run)),
            el("td", {class: "after"}, f.after === null ? "" : value(f.after, run)))))))
          : el("p", {class: "muted", text: "The session changed no record."}),
        Object.keys(ch.said || {}).length ? el("h3", {text: "What the session said"}) : null,
        Object.entries(ch.said || {}).map(([k, v]) => el("div", {}, el("div", {class: "muted", text: k}), value(v, run))),
        Object.keys(ch.files || {}).length ? el("p", {class: "muted", text: "files created: " +
          Object.entries(ch.files).map(([k, bytes]) => k.slice(0, 19) + "… (" + bytes + " bytes)").join(", ")}) : null,
      ];
    }
    const t = ep.timings || {};
    const calls = ep.steps.length || !ep.calls.length ? null : el("table", {id: "calls"},
      el("thead", {}, el("tr", {}, ["#", "tool", "outcome"].map((h) => el("th", {text: h})))),
      el("tbody", {}, ep.calls.map((c, i) => el("tr", {}, el("td", {text: i + 1}), el("td", {text: c.tool}),
        el("td", {}, c.ok ? tag("ok", "good") : tag("error", "bad"))))));
    REPORT.fill(main, 
      el("h1", {}, ep.task_id + " #" + ep.repeat + " ", badge(ep.reward, ep.mask_sample)),
      el("p", {}, el("a", {href: "tasks.html?run=" + run + "&text=" + encodeURIComponent(ep.task_id),
        text: "← the task among the tasks"})),
      el("dl", {class: "facts", id: "facts"},
        fact("reward", num(ep.reward)), fact("masked", ep.mask_sample ? "yes: " + (ep.failure_kind ?? "") : "no"),
        ep.failure_reason ? fact("failure reason", ep.failure_reason) : null,
        fact("ended", ep.end_reason), fact("model replies", ep.model_steps),
        fact("grader_version", ep.grader_version), fact("row_hash", ep.row_hash),
        fact("family / company / seed", [ep.family, ep.company, ep.seed].map((x) => x ?? "–").join(" / ")),
        fact("tier / split", (ep.tier ?? "–") + " / " + (ep.split ?? "–")),
        fact("apps / exposure", (ep.apps || []).join(", ") + " / " + (ep.exposure ?? "–")),
        fact("adapter / session", ep.adapter + " / " + (ep.session_id ?? "–")),
        fact("timings", "seed " + REPORT.seconds(t.seed_s) + ", model " + REPORT.seconds(t.model_s) + ", tools " +
          REPORT.seconds(t.tools_s) + ", verify " + REPORT.seconds(t.verify_s) + ", total " + REPORT.seconds(t.total_s)),
        fact("tools offered", ep.tools.length + " tools"),
        ep.regrade ? fact("regraded", "from reward " + num(ep.regrade.from?.reward) + " (grader " +
          (ep.regrade.from?.grader_version ?? "?") + ")" + (ep.regrade.error ? ": " + ep.regrade.error : "")) : null),
      el("h2", {text: "Instruction"}),
      el("div", {class: "instruction"}, typeof ep.instruction === "string" ? ep.instruction : value(ep.instruction, run)),
      el("h2", {text: "Steps (" + ep.steps.length + ")"}),
      ep.steps.length ? steps : el("p", {class: "muted", text: "This record has no conversation" +
        (ep.calls.length ? "; its tool calls:" : ".")}),
      calls,
      el("h2", {text: "Checks (" + ep.checks.filter((c) => c.passed).length + " of " + ep.checks.length +
        " passed)"}),
      checks,
      el("h2", {text: "Change set"}),
      changes,
      el("h2", {text: "Tools offered"}),
      value(ep.tools.join("\n"), run));
  });
});
