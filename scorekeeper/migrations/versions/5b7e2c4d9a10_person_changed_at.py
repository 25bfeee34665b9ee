"""the roster's last change: a rename is seen by every page that lists names

Revision ID: 5b7e2c4d9a10
Revises: 1ce2c3e76f3f
Create Date: 2026-11-29 18:45:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '5b7e2c4d9a10'
down_revision = '1ce2c3e76f3f'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('person', schema=None) as batch_op:
        batch_op.add_column(sa.Column('changed_at', sa.DateTime(), nullable=True))
    op.execute("UPDATE person SET changed_at = created_at")
    with op.batch_alter_table('person', schema=None) as batch_op:
        batch_op.alter_column('changed_at', existing_type=sa.DateTime(), nullable=False)


def downgrade():
    with op.batch_alter_table('person', schema=None) as batch_op:
        batch_op.drop_column('changed_at')
