from enum import StrEnum


class FrameItemItemType(StrEnum):
    FRAME = "frame"

    def __str__(self) -> str:
        return str(self.value)
