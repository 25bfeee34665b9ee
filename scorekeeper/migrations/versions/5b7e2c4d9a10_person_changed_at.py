"""each player's last change (a rename, or a change of a game they sat in): their page's version

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
    op.execute(
        "UPDATE person SET changed_at = coalesce("
        " (SELECT max(game.updated_at) FROM game"
        "   JOIN side ON side.game_id = game.id JOIN player ON player.side_id = side.id"
        "   WHERE player.person_id = person.id), created_at)"
    )
    with op.batch_alter_table('person', schema=None) as batch_op:
        batch_op.alter_column('changed_at', existing_type=sa.DateTime(), nullable=False)


def downgrade():
    with op.batch_alter_table('person', schema=None) as batch_op:
        batch_op.drop_column('changed_at')
