"""a version number per game and per person, for ETags and cached pages

Timestamps told followers' phones and the caches that something changed; two changes in
one microsecond, or on two servers whose clocks differ, could leave them unchanged. A
number moved by one in each change's own transaction cannot.

Revision ID: b3f1a2c4d5e6
Revises: 7c1d3e5f9b20
Create Date: 2026-12-01 10:00:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'b3f1a2c4d5e6'
down_revision = '7c1d3e5f9b20'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.add_column(sa.Column('version', sa.Integer(), server_default='1', nullable=False))
        batch_op.drop_index('ix_game_updated_at')
    with op.batch_alter_table('person', schema=None) as batch_op:
        batch_op.add_column(sa.Column('version', sa.Integer(), server_default='1', nullable=False))
        batch_op.drop_column('changed_at')


def downgrade():
    with op.batch_alter_table('person', schema=None) as batch_op:
        batch_op.add_column(sa.Column('changed_at', sa.DateTime(), nullable=True))
        batch_op.drop_column('version')
    op.execute("UPDATE person SET changed_at = created_at")
    with op.batch_alter_table('person', schema=None) as batch_op:
        batch_op.alter_column('changed_at', existing_type=sa.DateTime(), nullable=False)
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.create_index('ix_game_updated_at', ['updated_at'], unique=False)
        batch_op.drop_column('version')
