"""request keys kept with the change log, not with a deal

A key kept on the deal it recorded was forgotten with the deal: after the deal was deleted
or its change undone, the same request retried recorded it again. Every change now keeps
its request's key and fingerprint (what the request asked: its command, its target and
its figures) in the game's change log. Each deal's key moves to the change that recorded
it, with the fingerprint of that request worked out from the change's own figures (a deal
kept before hashes keeps none, and is answered as before).

Revision ID: 94a76a090723
Revises: e5f7a9b1c3d2
Create Date: 2026-12-01 23:00:20.665619

"""
import hashlib
import json

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '94a76a090723'
down_revision = 'e5f7a9b1c3d2'
branch_labels = None
depends_on = None

RECORDED = "deal-recorded"
NOT_NULL = sa.text('request_key IS NOT NULL')

deal = sa.table(
    "deal",
    sa.column("id", sa.Integer),
    sa.column("game_id", sa.String),
    sa.column("seq", sa.Integer),
    sa.column("request_key", sa.String),
    sa.column("request_hash", sa.String),
)
change = sa.table(
    "change",
    sa.column("id", sa.Integer),
    sa.column("game_id", sa.String),
    sa.column("kind", sa.String),
    sa.column("deal_seq", sa.Integer),
    sa.column("after", sa.JSON),
    sa.column("request_key", sa.String),
    sa.column("request_hash", sa.String),
)


def _sha256(value):
    canonical = json.dumps(value, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def _results(after):
    results = after.get("results") if isinstance(after, dict) else None
    return results if isinstance(results, list) else []


def _recording(bind, game_id, seq):
    """The change that recorded a deal (the first, should the log hold two)."""
    return bind.execute(
        sa.select(change.c.id, change.c.after, change.c.request_key)
        .where(change.c.game_id == game_id, change.c.deal_seq == seq, change.c.kind == RECORDED)
        .order_by(change.c.id)
        .limit(1)
    ).first()


def upgrade():
    with op.batch_alter_table('change', schema=None) as batch_op:
        batch_op.add_column(sa.Column('request_hash', sa.String(length=64), nullable=True))

    bind = op.get_bind()
    # One change per key and game (a key kept twice in a log: the first keeps it).
    kept = set()
    for row in bind.execute(
        sa.select(change.c.id, change.c.game_id, change.c.request_key)
        .where(change.c.request_key.is_not(None))
        .order_by(change.c.id)
    ):
        if (row.game_id, row.request_key) in kept:
            bind.execute(change.update().where(change.c.id == row.id).values(request_key=None))
        kept.add((row.game_id, row.request_key))
    for row in bind.execute(
        sa.select(deal.c.game_id, deal.c.seq, deal.c.request_key, deal.c.request_hash)
        .where(deal.c.request_key.is_not(None))
        .order_by(deal.c.id)
    ).all():
        recording = _recording(bind, row.game_id, row.seq)
        if (
            recording is None
            or recording.request_key is not None
            or (row.game_id, row.request_key) in kept
        ):
            continue  # a log without the deal's creation, or the key in use already
        digest = None
        if row.request_hash is not None:
            # As ``changes.commit.fingerprint`` writes a recorded deal's request.
            digest = _sha256(["record-deal", _results(recording.after)])
        bind.execute(
            change.update()
            .where(change.c.id == recording.id)
            .values(request_key=row.request_key, request_hash=digest)
        )
        kept.add((row.game_id, row.request_key))

    with op.batch_alter_table('change', schema=None) as batch_op:
        batch_op.create_index(
            'uq_change_request_key_game_id',
            ['request_key', 'game_id'],
            unique=True,
            sqlite_where=NOT_NULL,
            postgresql_where=NOT_NULL,
        )

    with op.batch_alter_table('deal', schema=None) as batch_op:
        batch_op.drop_index(
            'uq_deal_game_id_request_key', sqlite_where=NOT_NULL, postgresql_where=NOT_NULL
        )
        batch_op.drop_column('request_key')
        batch_op.drop_column('request_hash')


def downgrade():
    with op.batch_alter_table('deal', schema=None) as batch_op:
        batch_op.add_column(sa.Column('request_key', sa.String(length=64), nullable=True))
        batch_op.add_column(sa.Column('request_hash', sa.String(length=64), nullable=True))
        batch_op.create_index(
            'uq_deal_game_id_request_key',
            ['game_id', 'request_key'],
            unique=True,
            sqlite_where=NOT_NULL,
            postgresql_where=NOT_NULL,
        )

    # The keys of recorded deals still there go back onto them, hashed as they were then
    # (the change that recorded a deal kept no key).
    bind = op.get_bind()
    for row in bind.execute(
        sa.select(change.c.id, change.c.game_id, change.c.deal_seq, change.c.after,
                  change.c.request_key, change.c.request_hash)
        .where(change.c.request_key.is_not(None), change.c.kind == RECORDED)
        .order_by(change.c.id)
    ).all():
        bind.execute(
            deal.update()
            .where(deal.c.game_id == row.game_id, deal.c.seq == row.deal_seq)
            .values(
                request_key=row.request_key,
                request_hash=None if row.request_hash is None else _sha256(_results(row.after)),
            )
        )
        bind.execute(change.update().where(change.c.id == row.id).values(request_key=None))

    with op.batch_alter_table('change', schema=None) as batch_op:
        batch_op.drop_index(
            'uq_change_request_key_game_id', sqlite_where=NOT_NULL, postgresql_where=NOT_NULL
        )
        batch_op.drop_column('request_hash')
