"""the Canasta family's deal figures: sambas and escaleras, Cuban's wild canastas by
composition, and black threes scored apart (RULES.md section 10)

Revision ID: f1a3c5e7b9d2
Revises: 94a76a090723
Create Date: 2026-12-02 11:40:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'f1a3c5e7b9d2'
down_revision = '94a76a090723'
branch_labels = None
depends_on = None

FIGURES = ('sequence_canastas', 'deuce_canastas', 'joker_canastas', 'black_threes_in_hand',
           'black_threes_taken')


def upgrade():
    with op.batch_alter_table('deal_result', schema=None) as batch_op:
        for name in FIGURES:
            batch_op.add_column(sa.Column(name, sa.Integer(), nullable=False, server_default='0'))


def downgrade():
    with op.batch_alter_table('deal_result', schema=None) as batch_op:
        for name in FIGURES:
            batch_op.drop_column(name)
