"""club evenings: evenings, their players, rounds and tables; a game's last deal; the
ratings' version read from an index

An evening's tables each play an ordinary game per round (RULES.md section 11). Such a game
ends after its round's deals, or when the director calls time: ``game.last_deal``. Every
other game keeps None and ends at its target, as before.

Revision ID: 3d5f7b9c1e20
Revises: 0a7b9c1d2e3f
Create Date: 2026-12-03 12:00:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '3d5f7b9c1e20'
down_revision = '0a7b9c1d2e3f'
branch_labels = None
depends_on = None


#: The listed games: the finished ones' count and latest change are the ratings' version.
LISTED = sa.text('deleted_at IS NULL')


def upgrade():
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.add_column(sa.Column('last_deal', sa.Integer(), nullable=True))
    op.create_index(
        'ix_game_rated', 'game', ['finished', 'updated_at', 'deleted_at'], unique=False,
        sqlite_where=LISTED, postgresql_where=LISTED,
    )
    op.create_table(
        'evening',
        sa.Column('id', sa.String(length=32), nullable=False),
        sa.Column('token_hash', sa.String(length=64), nullable=False),
        sa.Column('name', sa.String(length=60), nullable=False),
        sa.Column('variant', sa.String(length=32), nullable=False),
        sa.Column('options', sa.JSON(), nullable=False),
        sa.Column('format', sa.String(length=12), nullable=False),
        sa.Column('rounds', sa.Integer(), nullable=False),
        sa.Column('deals_per_round', sa.Integer(), nullable=False),
        sa.Column('minutes_per_round', sa.Integer(), nullable=True),
        sa.Column('created_at', sa.DateTime(), nullable=False),
        sa.Column('version', sa.Integer(), server_default='1', nullable=False),
        sa.PrimaryKeyConstraint('id'),
    )
    op.create_table(
        'evening_player',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('evening_id', sa.String(length=32), nullable=False),
        sa.Column('entrant', sa.Integer(), nullable=False),
        sa.Column('position', sa.Integer(), nullable=False),
        sa.Column('person_id', sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(['evening_id'], ['evening.id'], ondelete='CASCADE'),
        sa.ForeignKeyConstraint(['person_id'], ['person.id']),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint(
            'evening_id', 'entrant', 'position', name=op.f('uq_evening_player_seat')
        ),
        sa.UniqueConstraint('evening_id', 'person_id', name=op.f('uq_evening_player_person')),
    )
    op.create_index(
        op.f('ix_evening_player_person_id'), 'evening_player', ['person_id'], unique=False
    )
    op.create_table(
        'evening_round',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('evening_id', sa.String(length=32), nullable=False),
        sa.Column('number', sa.Integer(), nullable=False),
        sa.Column('started_at', sa.DateTime(), nullable=False),
        sa.Column('closed_at', sa.DateTime(), nullable=True),
        sa.Column('byes', sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(['evening_id'], ['evening.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('evening_id', 'number'),
    )
    op.create_table(
        'evening_table',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('round_id', sa.Integer(), nullable=False),
        sa.Column('number', sa.Integer(), nullable=False),
        sa.Column('game_id', sa.String(length=32), nullable=False),
        sa.ForeignKeyConstraint(['game_id'], ['game.id']),
        sa.ForeignKeyConstraint(['round_id'], ['evening_round.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('game_id'),
        sa.UniqueConstraint('round_id', 'number'),
    )


def downgrade():
    op.drop_table('evening_table')
    op.drop_table('evening_round')
    op.drop_index(op.f('ix_evening_player_person_id'), table_name='evening_player')
    op.drop_table('evening_player')
    op.drop_table('evening')
    op.drop_index('ix_game_rated', table_name='game')
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.drop_column('last_deal')
