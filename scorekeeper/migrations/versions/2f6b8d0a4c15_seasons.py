"""a club's season: evenings that add up to a ladder

A club groups its evenings into a season (issue 44): the season keeps its name, its points
table and its director's secret's hash; an evening may belong to one; the season's log keeps
each command's request key, as an evening's does.

Revision ID: 2f6b8d0a4c15
Revises: 8b2d4f6a0c13
Create Date: 2027-02-03 10:00:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '2f6b8d0a4c15'
down_revision = '8b2d4f6a0c13'
branch_labels = None
depends_on = None

NOT_NULL = sa.text('request_key IS NOT NULL')


def upgrade():
    op.create_table(
        'season',
        sa.Column('id', sa.String(length=32), nullable=False),
        sa.Column('token_hash', sa.String(length=64), nullable=False),
        sa.Column('name', sa.String(length=60), nullable=False),
        sa.Column('points', sa.JSON(), nullable=False),
        sa.Column('created_at', sa.DateTime(), nullable=False),
        sa.Column('version', sa.Integer(), server_default='1', nullable=False),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_season')),
    )
    op.create_table(
        'season_change',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('season_id', sa.String(length=32), nullable=False),
        sa.Column('kind', sa.String(length=16), nullable=False),
        sa.Column('at', sa.DateTime(), nullable=False),
        sa.Column('device', sa.String(length=60), nullable=False),
        sa.Column('request_key', sa.String(length=64), nullable=True),
        sa.Column('request_hash', sa.String(length=64), nullable=True),
        sa.ForeignKeyConstraint(
            ['season_id'], ['season.id'], name=op.f('fk_season_change_season_id_season'),
            ondelete='CASCADE',
        ),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_season_change')),
    )
    op.create_index(
        'ix_season_change_season_id_id', 'season_change', ['season_id', 'id'], unique=False
    )
    op.create_index(
        'uq_season_change_request_key_season_id', 'season_change',
        ['request_key', 'season_id'], unique=True,
        sqlite_where=NOT_NULL, postgresql_where=NOT_NULL,
    )
    with op.batch_alter_table('evening') as batch:
        batch.add_column(sa.Column('season_id', sa.String(length=32), nullable=True))
        batch.create_index('ix_evening_season_id', ['season_id'], unique=False)
        batch.create_foreign_key(
            'fk_evening_season_id_season', 'season', ['season_id'], ['id']
        )


def downgrade():
    with op.batch_alter_table('evening') as batch:
        batch.drop_constraint('fk_evening_season_id_season', type_='foreignkey')
        batch.drop_index('ix_evening_season_id')
        batch.drop_column('season_id')
    op.drop_index(
        'uq_season_change_request_key_season_id', table_name='season_change',
        sqlite_where=NOT_NULL, postgresql_where=NOT_NULL,
    )
    op.drop_index('ix_season_change_season_id_id', table_name='season_change')
    op.drop_table('season_change')
    op.drop_table('season')
