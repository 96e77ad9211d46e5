"""The Gmail base state: every base person has an account, and the main user's mailbox holds a few
everyday conversations (ids below 200, so scenario rows never collide with them)."""

from __future__ import annotations

from datetime import timedelta
from random import Random

from mmtsb.apps.accounts import seed_users
from mmtsb.apps.base import BaseContext
from mmtsb.apps.gmail import core
from mmtsb.apps.gmail.schema import USER_THREADS, USERS
from mmtsb.world.world import World


def _at(base: BaseContext, days: float, hour: int) -> str:
    moment = (base.reference_time - timedelta(days=days)).replace(hour=hour, minute=15, second=0, microsecond=0)
    return moment.replace(tzinfo=None).isoformat()


def seed(world: World, base: BaseContext) -> None:
    seed_users(world, "gmail", base.people, {"status": "active"})
    _seed_mailbox(world, base)


def _seed_mailbox(world: World, base: BaseContext) -> None:
    main = world.get(USERS, base.main_user.id)
    rng = Random(f"gmail-seed:{base.main_user.id}")
    others = rng.sample([p.id for p in base.people if p.id != base.main_user.id], 4)
    a, b, c, d = (world.get(USERS, i) for i in others)
    you = main["first_name"]

    invite_id, _ = core.deliver(world, a, [main], "Dinner this Saturday?",
                             f"Hi {you},\n\nAre you free for dinner this Saturday around 7pm? I found a new Thai "
                             f"place downtown that has great reviews.\n\nLet me know!\n{a['first_name']}",
                             at=_at(base, 6, 9))
    thread = core.thread_of_email_for_user(world, main["id"], invite_id)
    core.deliver(world, main, [a], "Re: Dinner this Saturday?", f"Sounds great, count me in!\n\n{you}",
                 global_thread_id=thread["global_email_thread_id"], response_to_email_id=invite_id,
                 at=_at(base, 5, 18))
    report_id, _ = core.deliver(world, b, [main, c], "Quarterly report draft",
                 "Hi both,\n\nThe draft of the quarterly report is ready for review. Please send me your "
                 f"comments by Friday.\n\nThanks,\n{b['first_name']}", at=_at(base, 3, 10))
    report = core.thread_of_email_for_user(world, main["id"], report_id)
    world.update(USER_THREADS, report["id"], {"read": True, "starred": True, "label": "Work"})
    core.deliver(world, main, [d], "Book recommendation",
                 f"Hi {d['first_name']},\n\nI just finished 'The Overstory' and I think you would love it.\n\n{you}",
                 at=_at(base, 2, 20))
    core.deliver(world, c, [main], "Photos from the hike",
                 f"Hey {you},\n\nI uploaded the photos from last weekend's hike to the shared album. The view from "
                 f"the summit turned out amazing!\n\n{c['first_name']}", at=_at(base, 1, 16))
