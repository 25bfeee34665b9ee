"""The whole database as one file and back: ``flask backup FILE`` (``write``) and
``flask restore FILE`` (``restore``), in the document ``document`` states. It sits above
the store and the API because a backup's game reuses the API's game document."""

from .document import BACKUP_FORMAT, BackupError, Counts
from .restore import restore
from .write import backup

__all__ = ["BACKUP_FORMAT", "BackupError", "Counts", "backup", "restore"]
