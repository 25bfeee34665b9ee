"""a counter the commit step moves: the version of the club's ratings

The ratings were kept under (count, latest updated_at) of the finished games, read from the
index ix_game_rated. Deleting a finished game and then importing an old one with its own
dates brings the count back and leaves the latest date: the ladder stayed stale. A number
moved by one in the transaction of every change that can move a rating cannot; it is read
as one row by its name, so the index goes.

Revision ID: 8e4a6c2b0d17
Revises: 3d5f7b9c1e20
Create Date: 2026-12-20 10:00:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '8e4a6c2b0d17'
down_revision = '3d5f7b9c1e20'
branch_labels = None
depends_on = None

#: The listed games (as in 3d5f7b9c1e20), for the index given back on the way down.
LISTED = sa.text('deleted_at IS NULL')


def upgrade():
    counter = op.create_table(
        'counter',
        sa.Column('name', sa.String(length=32), nullable=False),
        sa.Column('value', sa.Integer(), server_default='1', nullable=False),
        sa.PrimaryKeyConstraint('name'),
    )
    op.bulk_insert(counter, [{'name': 'ratings', 'value': 1}])
    op.drop_index('ix_game_rated', table_name='game')


def downgrade():
    op.create_index(
        'ix_game_rated', 'game', ['finished', 'updated_at', 'deleted_at'], unique=False,
        sqlite_where=LISTED, postgresql_where=LISTED,
    )
    op.drop_table('counter')
