"""an evening's movement: Swiss, Mitchell or round robin

How an evening seats its rounds after the first (RULES.md section 11): by standings (Swiss,
every evening so far), by a Mitchell or by a round robin.

Revision ID: 4c6e8a0b2d19
Revises: b5d7f9a1c3e5
Create Date: 2027-01-20 10:00:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '4c6e8a0b2d19'
down_revision = 'b5d7f9a1c3e5'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('evening') as batch:
        batch.add_column(
            sa.Column('movement', sa.String(length=12), nullable=False, server_default='swiss')
        )


def downgrade():
    with op.batch_alter_table('evening') as batch:
        batch.drop_column('movement')
