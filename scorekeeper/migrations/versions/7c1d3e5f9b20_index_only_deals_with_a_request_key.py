"""index only the deals that carry a request key (most carry none)

Revision ID: 7c1d3e5f9b20
Revises: 5b7e2c4d9a10
Create Date: 2026-11-29 23:30:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '7c1d3e5f9b20'
down_revision = '5b7e2c4d9a10'
branch_labels = None
depends_on = None

HAS_KEY = sa.text("request_key IS NOT NULL")


def upgrade():
    # Still one deal per key and game; deals without a key no longer take a place in it.
    with op.batch_alter_table('deal', schema=None) as batch_op:
        batch_op.drop_constraint('uq_deal_game_id_request_key', type_='unique')
    with op.batch_alter_table('deal', schema=None) as batch_op:
        batch_op.create_index(
            'uq_deal_game_id_request_key',
            ['game_id', 'request_key'],
            unique=True,
            sqlite_where=HAS_KEY,
            postgresql_where=HAS_KEY,
        )


def downgrade():
    with op.batch_alter_table('deal', schema=None) as batch_op:
        batch_op.drop_index('uq_deal_game_id_request_key')
    with op.batch_alter_table('deal', schema=None) as batch_op:
        batch_op.create_unique_constraint('uq_deal_game_id_request_key', ['game_id', 'request_key'])
