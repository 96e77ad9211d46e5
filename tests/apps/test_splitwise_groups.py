"""Splitwise groups: creation, listing, editing, soft-delete/restore, members, invitation codes, leaving."""

from testkit import MAIN_EMAIL, MAIN_ID

from mmtsb.world import device

GROUPS, MEMBERS = "splitwise.groups", "splitwise.group_members"


def call_ok(session, tool_name, /, **args):
    """Like testkit.call_ok, but positional-only so that a tool parameter may be called ``name``."""
    out = session.call(tool_name, args)
    assert out.ok, f"{tool_name}({args}) failed: {out.error}"
    return out.value


def call_err(session, tool_name, /, **args):
    out = session.call(tool_name, args)
    assert not out.ok, f"{tool_name}({args}) unexpectedly succeeded: {out.value!r}"
    return out.error


def email_of(world, user_id):
    return world.get("splitwise.users", user_id)["email"]


def member_ids(world, group_id):
    return sorted(r["user_id"] for r in world.select(MEMBERS, "group_id = ?", (group_id,)))


def test_create_show_update_and_list(session, world):
    a, b = email_of(world, 3), email_of(world, 4)
    out = call_ok(session, "splitwise_create_group", name="Ski Club", member_emails=[a, b, MAIN_EMAIL],
                  description="Winter trips")
    gid = out["group_id"]
    row = world.get(GROUPS, gid)
    assert (row["user_id"], row["name"], row["description"], row["deleted"]) == (MAIN_ID, "Ski Club",
                                                                                "Winter trips", False)
    assert row["invitation_code"] and member_ids(world, gid) == sorted([MAIN_ID, 3, 4])
    assert world.select("splitwise.notifications", "user_id = 3 AND type = 'group_added'")
    shown = call_ok(session, "splitwise_show_group", group_id=gid)
    assert shown["creator"]["email"] == MAIN_EMAIL and {m["email"] for m in shown["members"]} == {MAIN_EMAIL, a, b}
    listed = call_ok(session, "splitwise_show_groups")
    assert listed[0]["group_id"] == gid and all(not g["deleted"] for g in listed)
    assert len(call_ok(session, "splitwise_show_groups", page_limit=1, page_index=1)) == 1
    assert len(call_ok(session, "splitwise_show_groups", page_limit=50)) == 3  # '>=1': no upper bound
    call_ok(session, "splitwise_update_group", group_id=gid, name="Ski & Snowboard Club")
    assert world.get(GROUPS, gid)["name"] == "Ski & Snowboard Club"
    assert world.get(GROUPS, gid)["description"] == "Winter trips"
    solo = call_ok(session, "splitwise_create_group", name="Just me", member_emails=[])["group_id"]
    assert member_ids(world, solo) == [MAIN_ID] and world.get(GROUPS, solo)["description"] == ""


def test_group_failures(session, world):
    assert "name" in call_err(session, "splitwise_create_group", name=" ", member_emails=[]).message
    assert "member_emails[0]" in call_err(session, "splitwise_create_group", name="X",
                                          member_emails=["ghost@nowhere.com"]).message
    assert "Invalid email" in call_err(session, "splitwise_create_group", name="X", member_emails=["bad"]).message
    assert not world.select(GROUPS, "name = 'X'")
    assert "does not exist" in call_err(session, "splitwise_show_group", group_id=999).message
    gid = call_ok(session, "splitwise_create_group", name="Y", member_emails=[])["group_id"]
    assert "Nothing to update" in call_err(session, "splitwise_update_group", group_id=gid).message
    assert "name" in call_err(session, "splitwise_update_group", group_id=gid, name="").message
    assert "page_limit" in call_err(session, "splitwise_show_groups", page_limit=0).message
    assert "page_index" in call_err(session, "splitwise_show_groups", page_index=-2).message
    # a group the user is not in looks like a missing one
    device.login(world, "splitwise", email_of(world, 7))
    assert "not a member" in call_err(session, "splitwise_show_group", group_id=gid).message
    assert "not a member" in call_err(session, "splitwise_update_group", group_id=gid, name="Hacked").message


def test_delete_and_undelete(session, world):
    gid = call_ok(session, "splitwise_create_group", name="Book club", member_emails=[email_of(world, 5)])["group_id"]
    call_ok(session, "splitwise_delete_group", group_id=gid)
    assert world.get(GROUPS, gid)["deleted"] is True
    assert gid not in [g["group_id"] for g in call_ok(session, "splitwise_show_groups")]
    assert [g["group_id"] for g in call_ok(session, "splitwise_show_groups", delete=True)] == [gid]
    assert "already deleted" in call_err(session, "splitwise_delete_group", group_id=gid).message
    assert "deleted" in call_err(session, "splitwise_add_member_to_group", group_id=gid,
                                 user_email=email_of(world, 6)).message
    device.login(world, "splitwise", email_of(world, 5))  # any member can restore it
    call_ok(session, "splitwise_undelete_group", group_id=gid)
    assert world.get(GROUPS, gid)["deleted"] is False
    assert "not deleted" in call_err(session, "splitwise_undelete_group", group_id=gid).message


def test_deleting_a_group_deletes_its_records_and_restoring_restores_them(session, world):
    """As AppWorld's delete_group / undelete_group: every expense and payment of the group is marked deleted, and
    all of them come back with the group (also one deleted on its own before)."""
    b = email_of(world, 5)
    gid = call_ok(session, "splitwise_create_group", name="Trip", member_emails=[b])["group_id"]
    kept = call_ok(session, "splitwise_record_expense", description="Hotel", paid_amount=100, payer_email=MAIN_EMAIL,
                   debtor_emails=[MAIN_EMAIL, b], group_id=gid)["expense_id"]
    gone = call_ok(session, "splitwise_record_expense", description="Taxi", paid_amount=10, payer_email=MAIN_EMAIL,
                   debtor_emails=[b], group_id=gid)["expense_id"]
    paid = call_ok(session, "splitwise_record_payment", payer_email=b, receiver_email=MAIN_EMAIL, amount=5,
                   group_id=gid)["payment_id"]
    call_ok(session, "splitwise_delete_expense", expense_id=gone)
    call_ok(session, "splitwise_update_group", group_id=gid, description="Summer")
    assert world.select("splitwise.notifications", "type = ?", ("group_updated",))   # the other member is told
    call_ok(session, "splitwise_delete_group", group_id=gid)
    assert world.get("splitwise.expenses", kept)["deleted"] is True and world.get("splitwise.payments", paid)["deleted"]
    call_ok(session, "splitwise_undelete_group", group_id=gid)
    assert not any(world.get("splitwise.expenses", e)["deleted"] for e in (kept, gone))
    assert world.get("splitwise.payments", paid)["deleted"] is False


def test_members_codes_and_leaving(session, world):
    gid = call_ok(session, "splitwise_create_group", name="Team lunch", member_emails=[])["group_id"]
    c = email_of(world, 9)
    call_ok(session, "splitwise_add_member_to_group", group_id=gid, user_email=c)
    assert 9 in member_ids(world, gid)
    assert "already a member" in call_err(session, "splitwise_add_member_to_group", group_id=gid,
                                          user_email=c).message
    assert "No Splitwise user" in call_err(session, "splitwise_add_member_to_group", group_id=gid,
                                           user_email="ghost@x.com").message
    # as in AppWorld an open balance does not block removing a member (it stays as it is)
    eid = call_ok(session, "splitwise_record_expense", description="Sandwiches", paid_amount=20,
                  payer_email=MAIN_EMAIL, debtor_emails=[MAIN_EMAIL, c], group_id=gid)["expense_id"]
    call_ok(session, "splitwise_remove_member_from_group", group_id=gid, user_email=c)
    assert 9 not in member_ids(world, gid) and world.get("splitwise.expenses", eid)["deleted"] is False
    # the actor and the remaining members hear of it, the removed one does not
    notes = world.select("splitwise.notifications", "type = ?", ("group_member_removed",))
    assert [n["user_id"] for n in notes] == [member_ids(world, gid)[0]]
    assert "not a member" in call_err(session, "splitwise_remove_member_from_group", group_id=gid,
                                      user_email=c).message
    assert "splitwise_exit_group" in call_err(session, "splitwise_remove_member_from_group", group_id=gid,
                                              user_email=MAIN_EMAIL).message
    old = world.get(GROUPS, gid)["invitation_code"]
    new = call_ok(session, "splitwise_regenerate_invitation_code", group_id=gid)["invitation_code"]
    assert new != old and world.get(GROUPS, gid)["invitation_code"] == new
    assert "does not exist" in call_err(session, "splitwise_regenerate_invitation_code", group_id=999).message
    device.login(world, "splitwise", c)
    assert "No group" in call_err(session, "splitwise_accept_group_invitation", invitation_code=old).message
    call_ok(session, "splitwise_accept_group_invitation", invitation_code=new.lower())
    assert 9 in member_ids(world, gid)
    assert "already a member" in call_err(session, "splitwise_accept_group_invitation",
                                          invitation_code=new).message
    call_ok(session, "splitwise_exit_group", group_id=gid)
    assert 9 not in member_ids(world, gid)
    assert "not a member" in call_err(session, "splitwise_exit_group", group_id=gid).message


def test_group_names_are_unique_per_creator(session, world):
    """AppWorld's uniqueness of (creator, name), on create and on rename."""
    first = call_ok(session, "splitwise_create_group", name="Flat", member_emails=[])["group_id"]
    assert "group names must be unique" in call_err(session, "splitwise_create_group", name="Flat",
                                                    member_emails=[]).message
    other = call_ok(session, "splitwise_create_group", name="Trip 2", member_emails=[])["group_id"]
    assert "group names must be unique" in call_err(session, "splitwise_update_group", group_id=other,
                                                    name="Flat").message
    call_ok(session, "splitwise_update_group", group_id=first, name="Flat", description="same name is fine")
