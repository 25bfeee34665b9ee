"""the card each player drew for seats

A table that draws for seats (RULES.md section 9) keeps who drew what, so the game's
page can show how the seats came about. The seats themselves are the sides' and
players' positions and the first dealer, as before; games without a draw have none.

Revision ID: e5f7a9b1c3d2
Revises: e7a9c1d3f5b7
Create Date: 2026-12-01 15:10:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'e5f7a9b1c3d2'
down_revision = 'e7a9c1d3f5b7'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('player', schema=None) as batch_op:
        batch_op.add_column(sa.Column('card', sa.String(length=4), nullable=True))


def downgrade():
    with op.batch_alter_table('player', schema=None) as batch_op:
        batch_op.drop_column('card')
