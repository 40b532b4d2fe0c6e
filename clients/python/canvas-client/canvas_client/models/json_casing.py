from enum import StrEnum


class JsonCasing(StrEnum):
    CAMEL = "camel"
    DEFAULT = "default"
    KEBAB = "kebab"
    PASCAL = "pascal"
    SNAKE = "snake"

    def __str__(self) -> str:
        return str(self.value)
