from enum import StrEnum


class StickyNoteItemItemType(StrEnum):
    STICKY_NOTE = "sticky-note"

    def __str__(self) -> str:
        return str(self.value)
