"""results confirmed by the other side

An evening may ask for each deal to be confirmed on the other side's phone (issue 43): the
evening says so, each table's game keeps the hash of that phone's secret, and each deal when
it was confirmed.

Revision ID: 8b2d4f6a0c13
Revises: 4c6e8a0b2d19
Create Date: 2027-01-27 10:00:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '8b2d4f6a0c13'
down_revision = '4c6e8a0b2d19'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('evening') as batch:
        batch.add_column(
            sa.Column('confirmations', sa.Boolean(), nullable=False, server_default=sa.false())
        )
    with op.batch_alter_table('game') as batch:
        batch.add_column(sa.Column('confirm_hash', sa.String(length=64), nullable=True))
    with op.batch_alter_table('deal') as batch:
        batch.add_column(sa.Column('confirmed_at', sa.DateTime(), nullable=True))


def downgrade():
    with op.batch_alter_table('deal') as batch:
        batch.drop_column('confirmed_at')
    with op.batch_alter_table('game') as batch:
        batch.drop_column('confirm_hash')
    with op.batch_alter_table('evening') as batch:
        batch.drop_column('confirmations')
