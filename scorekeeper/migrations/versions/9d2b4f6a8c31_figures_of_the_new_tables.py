"""the deal figures of Modern American Canasta, Hand and Foot and Burraco: aces and
semi-clean canastas, black threes laid down, red threes left in a foot, the penalties, the
pot and the special hand (RULES.md sections 13 to 15)

Revision ID: 9d2b4f6a8c31
Revises: 6a8c0e2f4b17
Create Date: 2026-12-06 00:10:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '9d2b4f6a8c31'
down_revision = '6a8c0e2f4b17'
branch_labels = None
depends_on = None

COUNTS = ('aces_canastas', 'semi_natural_canastas', 'black_threes', 'red_threes_in_hand',
          'aces_or_sevens_held')
FLAGS = ('unfinished_aces', 'unfinished_sevens', 'unfinished_wild', 'pot_missed')


def upgrade():
    with op.batch_alter_table('deal_result', schema=None) as batch_op:
        for name in COUNTS:
            batch_op.add_column(sa.Column(name, sa.Integer(), nullable=False, server_default='0'))
        for name in FLAGS:
            batch_op.add_column(
                sa.Column(name, sa.Boolean(), nullable=False, server_default=sa.false())
            )
        batch_op.add_column(sa.Column('special_hand', sa.String(length=16), nullable=True))


def downgrade():
    with op.batch_alter_table('deal_result', schema=None) as batch_op:
        for name in (*COUNTS, *FLAGS, 'special_hand'):
            batch_op.drop_column(name)
