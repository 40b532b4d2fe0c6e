from enum import StrEnum


class Decorator(StrEnum):
    ARROW = "Arrow"
    ARROWLINE = "ArrowLine"
    CIRCLE = "Circle"
    NONE = "None"

    def __str__(self) -> str:
        return str(self.value)
