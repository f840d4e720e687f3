/* Tasks: one row per task, sortable by any column, filtered by family, tier, split, reward, end reason,
   tool errors, duration and id. Filters start from the page's query (tasks.html?family=F&reward=fail). */
"use strict";

REPORT.page("Tasks", (main, site) => {
  const {el, num, badge} = REPORT;
  const run = Number(REPORT.param("run", "0"));
  const PAGE = 500;
  return REPORT.load("r" + run + "/tasks").then((rows) => {
    const distinct = (get) => [...new Set(rows.flatMap((r) => [get(r)].flat()).map((v) => v ?? "(none)"))].sort();
    const choice = (id, label, options) => {
      const select = el("select", {id: id},
        options.map(([value, text]) => el("option", {value: value, text: text})));
      const wanted = REPORT.param(id.slice(2));
      if (wanted !== null && options.some(([v]) => v === wanted)) select.value = wanted;
      return [select, el("label", {}, label, select)];
    };
    const any = [["", "any"]];
    const [family, familyBox] = choice("f-family", "family", any.concat(distinct((r) => r.family).map((v) => [v, v])));
    const [tier, tierBox] = choice("f-tier", "tier", any.concat(distinct((r) => r.tier).map((v) => [v, v])));
    const [split, splitBox] = choice("f-split", "split", any.concat(distinct((r) => r.split).map((v) => [v, v])));
    const [reward, rewardBox] = choice("f-reward", "mean reward", any.concat([["pass", "1 (all passed)"],
      ["fail", "0 (none passed)"], ["mixed", "between 0 and 1"], ["masked", "all masked"]]));
    const [end, endBox] = choice("f-end", "an episode ended", any.concat(
      distinct((r) => Object.keys(r.end_reasons)).map((v) => [v, v])));
    const [errors, errorsBox] = choice("f-errors", "tool errors", any.concat([["with", "some"], ["without", "none"],
      ["unoffered", "a tool not offered"]]));
    const duration = el("input", {id: "f-duration", type: "number", min: "0", step: "0.1", placeholder: "0",
      value: REPORT.param("duration") || ""});
    const text = el("input", {id: "f-text", type: "search", placeholder: "part of a task id",
      value: REPORT.param("text") || ""});
    const count = el("span", {id: "shown", class: "muted"});
    const columns = [
      ["task", (r) => r.task_id, false], ["family", (r) => r.family ?? "", false], ["tier", (r) => r.tier ?? "", false],
      ["split", (r) => r.split ?? "", false], ["episodes", (r) => r.episodes, true], ["masked", (r) => r.masked, true],
      ["mean", (r) => r.mean ?? -1, true], ["variance", (r) => r.variance ?? -1, true],
      ["pass@k", (r) => r.pass_at_k ?? -1, true], ["tool errors", (r) => r.tool_errors, true],
      ["steps", (r) => r.steps ?? -1, true], ["duration", (r) => r.duration_s ?? -1, true],
      ["ended", (r) => Object.keys(r.end_reasons).join(","), false],
    ];
    let sortBy = 0, ascending = true, limit = PAGE;
    const heads = columns.map(([label, , numeric], i) => el("th", {class: "sortable" + (numeric ? " num" : ""),
      text: label, onclick: () => {
        ascending = sortBy === i ? !ascending : !numeric;
        sortBy = i;
        draw();
      }}));
    const body = el("tbody", {});
    const more = el("div", {class: "more"});

    const keep = (r) => {
      if (family.value && (r.family ?? "(none)") !== family.value) return false;
      if (tier.value && (r.tier ?? "(none)") !== tier.value) return false;
      if (split.value && (r.split ?? "(none)") !== split.value) return false;
      if (reward.value === "pass" && r.mean !== 1) return false;
      if (reward.value === "fail" && r.mean !== 0) return false;
      if (reward.value === "mixed" && !(r.mean > 0 && r.mean < 1)) return false;
      if (reward.value === "masked" && r.mean !== null) return false;
      if (end.value && !(end.value in r.end_reasons)) return false;
      if (errors.value === "with" && !r.tool_errors) return false;
      if (errors.value === "without" && r.tool_errors) return false;
      if (errors.value === "unoffered" && !r.not_offered) return false;
      if (duration.value && !((r.duration_s ?? 0) >= Number(duration.value))) return false;
      if (text.value && !r.task_id.toLowerCase().includes(text.value.toLowerCase())) return false;
      return true;
    };

    function draw() {
      const get = columns[sortBy][1];
      const shown = rows.filter(keep).sort((a, b) => {
        const x = get(a), y = get(b);
        const order = x < y ? -1 : x > y ? 1 : 0;
        return ascending ? order : -order;
      });
      heads.forEach((th, i) => { th.classList.toggle("sorted-asc", i === sortBy && ascending);
        th.classList.toggle("sorted-desc", i === sortBy && !ascending); });
      body.replaceChildren(...shown.slice(0, limit).map((r) => el("tr", {"data-task": r.task_id},
        el("td", {}, el("a", {href: "task.html?run=" + run + "&t=" + r.i, text: r.task_id})),
        el("td", {text: r.family ?? ""}), el("td", {text: r.tier ?? ""}), el("td", {text: r.split ?? ""}),
        el("td", {class: "num", text: r.episodes}), el("td", {class: "num", text: r.masked}),
        el("td", {class: "num"}, r.mean === null ? badge(0, true) : badge(r.mean, false)),
        el("td", {class: "num", text: num(r.variance)}), el("td", {class: "num", text: num(r.pass_at_k)}),
        el("td", {class: "num", text: r.tool_errors + (r.not_offered ? " (" + r.not_offered + " not offered)" : "")}),
        el("td", {class: "num", text: num(r.steps, 1)}), el("td", {class: "num", text: REPORT.seconds(r.duration_s)}),
        el("td", {text: Object.entries(r.end_reasons).map(([k, n]) => k + " " + n).join(", ")}))));
      count.textContent = shown.length + " of " + rows.length + " tasks";
      more.replaceChildren(shown.length > limit ? el("button", {text: "show all " + shown.length,
        onclick: () => { limit = Infinity; draw(); }}) : "");
    }

    for (const control of [family, tier, split, reward, end, errors, duration, text]) {
      control.addEventListener(control.tagName === "INPUT" ? "input" : "change", () => { limit = PAGE; draw(); });
    }
    REPORT.fill(main, 
      el("h1", {text: "Tasks of " + site.runs[run].name}),
      el("div", {class: "filters"}, familyBox, tierBox, splitBox, rewardBox, endBox, errorsBox,
        el("label", {}, "duration at least (s)", duration), el("label", {}, "task id", text), count),
      el("table", {id: "tasks"}, el("thead", {}, el("tr", {}, heads)), body), more);
    draw();
  });
});
