"""Every change must be asked for, by value: added list items, new values, and how many records."""

from gateway.grading import diff
from gateway.grading.changes import collateral

D = "@northwind.example"
OWNER = {"email": f"alex{D}", "role": "owner"}
BEFORE = {"drive": {"files": {"f1": {"id": "f1", "permissions": [OWNER], "name": "a"}}}}
SHARE = {
    "app": "drive", "collection": "files", "kinds": ["update"], "where": {"id": "f1"}, "fields": ["permissions"],
    "added": {"permissions": {"email": f"marcus{D}", "role": "writer"}},
}  # fmt: skip


def after(*perms, name="a"):
    return {"drive": {"files": {"f1": {"id": "f1", "permissions": [{"email": f"alex{D}", "role": "owner"}, *perms],
                                       "name": name}}}}  # fmt: skip


def allowed(final, rules):
    return collateral(diff(BEFORE, final), rules).passed


def test_an_added_item_must_be_the_one_asked_for():
    assert allowed(after({"email": f"marcus{D}", "role": "writer"}), [SHARE])
    assert not allowed(after({"email": "outsider@other.example", "role": "writer"}), [SHARE])
    assert not allowed(after({"email": f"marcus{D}", "role": "owner"}), [SHARE])
    two = after({"email": f"marcus{D}", "role": "writer"}, {"email": f"ruby{D}", "role": "reader"})
    assert not allowed(two, [SHARE])


def test_removing_an_item_needs_a_removed_rule():
    final = {"drive": {"files": {"f1": {"id": "f1", "permissions": [], "name": "a"}}}}
    assert not allowed(final, [SHARE])
    assert allowed(final, [{**SHARE, "removed": {"permissions": {"email": f"alex{D}"}}}])


def test_values_bind_the_new_value_of_a_field():
    rename = {"app": "drive", "collection": "files", "kinds": ["update"], "fields": ["name"], "values": {"name": "b"}}
    assert allowed(after(name="b"), [rename])
    assert not allowed(after(name="c"), [rename])


def test_an_add_rule_covers_one_record_unless_it_says_more():
    start = {"cal": {"events": {}}}
    two = {"cal": {"events": {"e1": {"title": "x"}, "e2": {"title": "x"}}}}
    rule = {"app": "cal", "collection": "events", "kinds": ["add"]}
    assert not collateral(diff(start, two), [rule]).passed
    assert collateral(diff(start, two), [{**rule, "count": 2}]).passed
