import pytest

from tools.kernel.exceptions import InvalidArgument
from tools.kits.folders import MAX_DEPTH, ancestors, check_name, descendants

# id -> (parent id, is a folder)
TREE = {"a": ("root", True), "b": ("a", True), "c": ("b", False), "d": ("a", False), "e": ("root", False)}


def test_ancestors_nearest_first_and_stop_at_a_root():
    folders = {k: v for k, v in TREE.items() if v[1]}
    assert ancestors(TREE["c"][0], folders, lambda f: f[0]) == [TREE["b"], TREE["a"]]
    assert ancestors("root", folders, lambda f: f[0]) == []


def test_ancestors_stop_on_a_cycle():
    loop = {"x": "y", "y": "x"}
    assert len(ancestors("x", loop, lambda parent: parent)) == MAX_DEPTH


def test_descendants_walk_every_depth():
    def kids(pid):
        return [k for k, v in TREE.items() if v[0] == pid]

    found = descendants("a", kids, lambda k: k if TREE[k][1] else None)
    assert sorted(found) == ["b", "c", "d"]
    assert descendants("e", kids, lambda k: None) == []


@pytest.mark.parametrize(
    ("name", "fragment"),
    [("", "must not be empty"), ("a/b", "contains /"), ("..", "names cannot be"), ("x" * 256, "at most 255"),
     ("a\x00b", "control character (U+0000)"), ("x\x1b[2J\ny.md", "control character (U+001B)"),
     ("report\u202etxt.exe", "control character (U+202E)")],
)
def test_check_name_refuses_with_the_parameter(name, fragment):
    with pytest.raises(InvalidArgument) as err:
        check_name(name, "name")
    assert fragment in err.value.message
    assert err.value.parameter == "name"


def test_check_name_strips_and_takes_store_specific_characters():
    assert check_name("  Q1 plan.docx ", "name") == "Q1 plan.docx"
    with pytest.raises(InvalidArgument, match=r"contains \*"):
        check_name("a*b", "name", forbidden='/\\:*?"<>|')
    assert check_name("a*b", "name") == "a*b"
