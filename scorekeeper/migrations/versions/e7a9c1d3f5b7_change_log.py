"""change log: every change to a game kept, so any of them can be undone; games deleted

Only the last deal could be undone, and an edit or a deletion not at all. Each game now
keeps its changes (what, when, from which phone, the figures before and after); a game
can be deleted and restored. Existing games get their log reconstructed from their deals
as they stand: one "game created" and one "deal recorded" per deal, marked so.

Revision ID: e7a9c1d3f5b7
Revises: c4e2d6f8a1b3
Create Date: 2026-12-01 15:00:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'e7a9c1d3f5b7'
down_revision = 'c4e2d6f8a1b3'
branch_labels = None
depends_on = None

#: The figures of a side's entry, as ``store.games.entries_json`` writes them (the
#: migration keeps its own copy: later code may change, this revision may not).
INTEGERS = (
    'meld_points', 'natural_canastas', 'mixed_canastas', 'wild_canastas', 'sevens_canastas',
    'concealed_canastas', 'red_threes', 'hand_points',
)


def upgrade():
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.add_column(sa.Column('deleted_at', sa.DateTime(), nullable=True))
        batch_op.create_index(batch_op.f('ix_game_deleted_at'), ['deleted_at'], unique=False)
    change = op.create_table(
        'change',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('game_id', sa.String(length=32), nullable=False),
        sa.Column('kind', sa.String(length=16), nullable=False),
        sa.Column('at', sa.DateTime(), nullable=False),
        sa.Column('device', sa.String(length=60), nullable=False),
        sa.Column('deal_seq', sa.Integer(), nullable=True),
        sa.Column('deal_number', sa.Integer(), nullable=True),
        sa.Column('before', sa.JSON(), nullable=True),
        sa.Column('after', sa.JSON(), nullable=True),
        sa.Column('undoes', sa.Integer(), nullable=True),
        sa.Column('undone', sa.Boolean(), nullable=False),
        sa.Column('reconstructed', sa.Boolean(), nullable=False),
        sa.Column('request_key', sa.String(length=64), nullable=True),
        sa.ForeignKeyConstraint(['game_id'], ['game.id'], name=op.f('fk_change_game_id_game'), ondelete='CASCADE'),
        sa.ForeignKeyConstraint(['undoes'], ['change.id'], name=op.f('fk_change_undoes_change')),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_change')),
    )
    op.create_index('ix_change_game_id_id', 'change', ['game_id', 'id'], unique=False)

    bind = op.get_bind()
    game = sa.table('game', sa.column('id'), sa.column('created_at', sa.DateTime()))
    deal = sa.table(
        'deal', sa.column('id'), sa.column('game_id'), sa.column('seq'), sa.column('version'),
        sa.column('created_at', sa.DateTime()),
    )
    result = sa.table(
        'deal_result', sa.column('deal_id'), sa.column('side_position'),
        *(sa.column(name) for name in INTEGERS), sa.column('went_out'), sa.column('concealed'),
    )
    rows = []
    for game_id, created_at in bind.execute(sa.select(game.c.id, game.c.created_at).order_by(game.c.created_at, game.c.id)):
        rows.append(_row(game_id, 'game-created', created_at))
        deals = bind.execute(
            sa.select(deal.c.id, deal.c.seq, deal.c.version, deal.c.created_at)
            .where(deal.c.game_id == game_id).order_by(deal.c.seq)
        ).all()
        for number, (deal_id, seq, version, deal_at) in enumerate(deals, start=1):
            entries = [
                {**{name: getattr(r, name) for name in INTEGERS},
                 'went_out': bool(r.went_out), 'concealed': bool(r.concealed)}
                for r in bind.execute(
                    sa.select(result).where(result.c.deal_id == deal_id).order_by(result.c.side_position)
                )
            ]
            after = {'version': version, 'results': entries}
            rows.append(_row(game_id, 'deal-recorded', deal_at, seq=seq, number=number, after=after))
        if len(rows) >= 500:
            op.bulk_insert(change, rows)
            rows = []
    if rows:
        op.bulk_insert(change, rows)


def _row(game_id, kind, at, *, seq=None, number=None, after=None):
    return {
        'game_id': game_id, 'kind': kind, 'at': at, 'device': '', 'deal_seq': seq,
        'deal_number': number, 'before': None, 'after': after, 'undoes': None,
        'undone': False, 'reconstructed': True, 'request_key': None,
    }


def downgrade():
    op.drop_index('ix_change_game_id_id', table_name='change')
    op.drop_table('change')
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_game_deleted_at'))
        batch_op.drop_column('deleted_at')
