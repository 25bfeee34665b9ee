"""the evening's log: each command of its director, with the request's key

A retried command of a club evening (a new evening, a round started or closed, seats
swapped) acts once, as a game's changes do: its key is kept with the evening's log, as a
game's with the game's.

Revision ID: 6a8c0e2f4b17
Revises: 8e4a6c2b0d17
Create Date: 2027-01-10 10:00:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '6a8c0e2f4b17'
down_revision = '8e4a6c2b0d17'
branch_labels = None
depends_on = None

NOT_NULL = sa.text('request_key IS NOT NULL')


def upgrade():
    op.create_table(
        'evening_change',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('evening_id', sa.String(length=32), nullable=False),
        sa.Column('kind', sa.String(length=16), nullable=False),
        sa.Column('round', sa.Integer(), nullable=True),
        sa.Column('at', sa.DateTime(), nullable=False),
        sa.Column('device', sa.String(length=60), nullable=False),
        sa.Column('request_key', sa.String(length=64), nullable=True),
        sa.Column('request_hash', sa.String(length=64), nullable=True),
        sa.ForeignKeyConstraint(
            ['evening_id'], ['evening.id'], name=op.f('fk_evening_change_evening_id_evening'),
            ondelete='CASCADE',
        ),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_evening_change')),
    )
    op.create_index(
        'ix_evening_change_evening_id_id', 'evening_change', ['evening_id', 'id'], unique=False
    )
    op.create_index(
        'uq_evening_change_request_key_evening_id', 'evening_change',
        ['request_key', 'evening_id'], unique=True,
        sqlite_where=NOT_NULL, postgresql_where=NOT_NULL,
    )


def downgrade():
    op.drop_index(
        'uq_evening_change_request_key_evening_id', table_name='evening_change',
        sqlite_where=NOT_NULL, postgresql_where=NOT_NULL,
    )
    op.drop_index('ix_evening_change_evening_id_id', table_name='evening_change')
    op.drop_table('evening_change')
