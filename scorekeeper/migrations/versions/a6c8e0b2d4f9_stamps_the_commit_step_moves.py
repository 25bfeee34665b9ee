"""versions the commit step moves: each evening's and season's stamp, and the history's

An evening's pages were keyed by the sum of its tables' games' versions, read over a join
that grows with the evening; a season's page by three such sums; the history page ran its
listing to make its key. Each is now one row that the commit step moves: a stamp per
evening and per season (rows apart from theirs: an evening's command locks its row before
its tables' games, a deal its game before the stamp), and a counter named ``history``.

Revision ID: a6c8e0b2d4f9
Revises: 2f6b8d0a4c15
Create Date: 2026-12-06 21:00:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'a6c8e0b2d4f9'
down_revision = '2f6b8d0a4c15'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'evening_stamp',
        sa.Column('evening_id', sa.String(length=32), nullable=False),
        sa.Column('value', sa.Integer(), server_default='1', nullable=False),
        sa.ForeignKeyConstraint(
            ['evening_id'], ['evening.id'],
            name=op.f('fk_evening_stamp_evening_id_evening'), ondelete='CASCADE',
        ),
        sa.PrimaryKeyConstraint('evening_id', name=op.f('pk_evening_stamp')),
    )
    op.create_table(
        'season_stamp',
        sa.Column('season_id', sa.String(length=32), nullable=False),
        sa.Column('value', sa.Integer(), server_default='1', nullable=False),
        sa.ForeignKeyConstraint(
            ['season_id'], ['season.id'],
            name=op.f('fk_season_stamp_season_id_season'), ondelete='CASCADE',
        ),
        sa.PrimaryKeyConstraint('season_id', name=op.f('pk_season_stamp')),
    )
    # Every evening and season there is gets its stamp; the pages' keys change form, so
    # no key kept from the sums can come back.
    op.execute('INSERT INTO evening_stamp (evening_id, value) SELECT id, 1 FROM evening')
    op.execute('INSERT INTO season_stamp (season_id, value) SELECT id, 1 FROM season')
    counter = sa.table('counter', sa.column('name', sa.String), sa.column('value', sa.Integer))
    op.bulk_insert(counter, [{'name': 'history', 'value': 1}])


def downgrade():
    op.execute("DELETE FROM counter WHERE name = 'history'")
    op.drop_table('season_stamp')
    op.drop_table('evening_stamp')
