from enum import StrEnum


class ParentType0(StrEnum):
    INBOX = "inbox"
    PANEL = "panel"

    def __str__(self) -> str:
        return str(self.value)
