"""how a club evening ranks its tables: match points, or victory points by a scale, with
what a bye scores (RULES.md section 16)

Revision ID: b5d7f9a1c3e5
Revises: 9d2b4f6a8c31
Create Date: 2026-12-06 04:00:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'b5d7f9a1c3e5'
down_revision = '9d2b4f6a8c31'
branch_labels = None
depends_on = None


def upgrade():
    # Evenings made before score by match points (scoring null), as they always did.
    with op.batch_alter_table('evening', schema=None) as batch_op:
        batch_op.add_column(sa.Column('scoring', sa.JSON(), nullable=True))
        batch_op.add_column(sa.Column('bye_vp', sa.Integer(), nullable=False, server_default='12'))


def downgrade():
    with op.batch_alter_table('evening', schema=None) as batch_op:
        batch_op.drop_column('bye_vp')
        batch_op.drop_column('scoring')
