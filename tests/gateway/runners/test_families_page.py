"""The families page's generated block: every family with its apps, kind, tier shares and an example instruction."""

from pathlib import Path

from gateway.runners.cli import families_page
from gateway.runners.cli.families_page import BEGIN, END, render

ROOT = Path(__file__).resolve().parents[3]


def test_the_families_page_is_current():
    # after adding or changing a family: python -m gateway.runners.cli.families_page
    assert families_page.main(["--check", "--page", str(ROOT / "docs" / "families.md")]) == 0


def _fact(tid: str, tier: str, instruction: str = "Do it.") -> dict:
    family = tid.split(".")[0]
    return {"id": tid, "family": family, "tier": tier, "kind": "task", "instruction": instruction}


def test_a_family_row_gives_its_tier_shares_and_its_first_instances_instruction():
    facts = [
        _fact("b-fam.gen-2.0", "hard", "Second company."),
        _fact("b-fam.gen-1.1", "easy", "Seed one."),
        _fact("b-fam.gen-1.0", "easy", "First | piped\nline."),
        _fact("b-fam.gen-10.0", "medium", "Tenth."),
        _fact("a-fam.gen-1.0", "hard", "x" * 300),
        {"id": "hand", "family": None, "tier": "easy", "kind": "task", "instruction": "not a family"},
    ]
    text = render(facts, {"a-fam": ["gmail"], "b-fam": ["drive", "gmail"]})
    rows = [line for line in text.splitlines() if line.startswith("| `")]
    assert rows[0].startswith("| `a-fam` | task | gmail | 1 | 0% / 0% / 100% | " + "x" * 217 + "...")
    assert rows[1] == "| `b-fam` | task | drive, gmail | 4 | 50% / 25% / 25% | First \\| piped line. |"
    assert text.startswith("2 families, 5 instances (easy 40%, medium 20%, hard 40%).")


def test_a_stale_page_fails_the_check_and_is_rewritten_between_its_markers(tmp_path, monkeypatch):
    monkeypatch.setattr(families_page, "page_block", lambda: "NEW\n")
    page = tmp_path / "families.md"
    page.write_text(f"# Title\n\n{BEGIN}\nOLD\n{END}\n\nAfter.\n")
    assert families_page.main(["--check", "--page", str(page)]) == 1
    assert families_page.main(["--page", str(page)]) == 0
    assert page.read_text() == f"# Title\n\n{BEGIN}\nNEW\n{END}\n\nAfter.\n"
    assert families_page.main(["--check", "--page", str(page)]) == 0
    bare = tmp_path / "bare.md"
    bare.write_text("# Bare\n")
    assert families_page.main(["--page", str(bare)]) == 0
    assert bare.read_text() == f"# Bare\n\n## Every family\n\n{BEGIN}\nNEW\n{END}\n"
