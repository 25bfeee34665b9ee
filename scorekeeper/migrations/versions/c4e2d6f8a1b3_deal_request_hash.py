"""deal request hashes: a key reused with other figures is refused, not answered

A retried request answered with the deal its key recorded, whatever its body said: a
key sent again with other figures dropped them silently. The hash of what the key
recorded tells a retry from another deal. Deals recorded before it have none.

Revision ID: c4e2d6f8a1b3
Revises: b3f1a2c4d5e6
Create Date: 2026-12-01 12:00:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'c4e2d6f8a1b3'
down_revision = 'b3f1a2c4d5e6'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('deal', schema=None) as batch_op:
        batch_op.add_column(sa.Column('request_hash', sa.String(length=64), nullable=True))


def downgrade():
    with op.batch_alter_table('deal', schema=None) as batch_op:
        batch_op.drop_column('request_hash')
